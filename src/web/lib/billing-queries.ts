/**
 * Billing server state shared by the settings and checkout pages: one key factory and one hook
 * per endpoint (SPEC §7 "Client account and subscription"). Every key starts with 'billing' so a
 * payment or a cancellation refreshes them all by prefix.
 */
import { useQuery } from '@tanstack/react-query';
import type { BillingConfig, Plan, Subscription } from '../../contract/billing';
import { getJson } from './api';
import { useSeededQuery } from './first-screen-pending';

export const billingKeys = {
  all: ['billing'] as const,
  subscription: () => [...billingKeys.all, 'subscription'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  config: () => [...billingKeys.all, 'config'] as const,
  notifications: () => [...billingKeys.all, 'notifications'] as const,
};

/** The client's subscription, or null without one. `pollMs` while a payment is still being confirmed. */
export function useSubscription(pollMs: number | false = false) {
  // Seeded by the dashboard's first-screen read.
  return useSeededQuery({
    queryKey: billingKeys.subscription(),
    queryFn: () => getJson<Subscription | null>('/api/client/subscription'),
    refetchInterval: pollMs,
  });
}

export function usePlans() {
  return useQuery({
    queryKey: billingKeys.plans(),
    queryFn: () => getJson<Plan[]>('/api/client/subscription-plans'),
  });
}

export function useBillingConfig() {
  return useQuery({
    queryKey: billingKeys.config(),
    queryFn: () => getJson<BillingConfig>('/api/billing/config'),
  });
}
