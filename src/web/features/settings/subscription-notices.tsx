/**
 * What the Subscription tab says above the plan (SPEC §4): the outcome of a checkout or a PayPal
 * return, and the amber or blue notice both this banner and the plan card use.
 */
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Subscription } from '../../../contract/billing';
import { formatBillingDate } from '../../lib/billing-format';

export function OutcomeBanner({
  success,
  paypal,
  subscription,
  loading,
}: {
  success: boolean;
  paypal: string | null;
  subscription: Subscription | null;
  loading: boolean;
}) {
  if (loading || (!success && !paypal)) return null;
  if (subscription?.status === 'active' && (success || paypal === 'pending')) {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4 text-sm"
      >
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
        <div>
          <p className="font-semibold">Subscription active</p>
          <p className="text-muted-foreground">
            Thank you! You are subscribed to {subscription.plan.name}. Your next billing date is{' '}
            {formatBillingDate(subscription.currentPeriodEnd)}.
          </p>
        </div>
      </div>
    );
  }
  if (paypal === 'error') {
    return (
      <Notice tone="amber" title="PayPal could not confirm your subscription">
        Nothing was activated. If PayPal charged you, it will show here within a few minutes; otherwise please
        try again.
      </Notice>
    );
  }
  return (
    <Notice tone="info" title="Confirming your payment">
      Your payment is being confirmed. This page updates as soon as your subscription is active.
    </Notice>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'amber' | 'info';
  title: string;
  children: ReactNode;
}) {
  const Icon = tone === 'amber' ? AlertTriangle : Info;
  return (
    <div
      role="status"
      className={
        tone === 'amber'
          ? 'flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100'
          : 'flex items-start gap-3 rounded-lg border bg-accent/60 p-4 text-sm'
      }
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{title}</p>
        <p className="opacity-90">{children}</p>
      </div>
    </div>
  );
}
