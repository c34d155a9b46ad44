/**
 * Server state of the agency's console: analytics, clients at risk, a client's delivery
 * log and sync history, the audit log and the admins. Keys start with 'admin', so every admin
 * write (mutations.ts) refreshes them too.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  AdminAccount,
  AdminAnalytics,
  AdminCredentials,
  AtRiskClient,
  AuditPage,
  DeliveriesPage,
  Delivery,
  PortfolioSort,
  ReplayResult,
  SyncRunsPage,
  TestCallResult,
} from '../../../contract/agency';
import type { SyncProgress } from '../../../contract/calls';
import { apiJson, getJson } from '../../lib/api';
import { syncAndFollow } from '../calls/follow-sync';
import { adminKeys } from './queries';

const id = (value: string) => encodeURIComponent(value);
const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export type AnalyticsRange = { dateRange: string } | { from: string; to: string };

/** The client table's view: its order, its page and the text that narrows it. */
export interface PortfolioView {
  sort: PortfolioSort;
  order: 'asc' | 'desc';
  page: number;
  search: string;
}

export function useAdminAnalytics(range: AnalyticsRange, view: PortfolioView) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...adminKeys.all, 'analytics', range, view],
    queryFn: async () => {
      const analytics = await getJson<AdminAnalytics>(`/api/admin/analytics${query({ ...range, ...view })}`);
      // The header's cards are read with every Analytics read, so the two never show different moments.
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
      return analytics;
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

export function useClientsAtRisk() {
  return useQuery({
    queryKey: [...adminKeys.all, 'at-risk'],
    queryFn: () => getJson<AtRiskClient[]>('/api/admin/at-risk'),
    staleTime: 30_000,
  });
}

export function useDeliveries(clientId: string, page: number, outcome: string) {
  return useQuery({
    queryKey: [...adminKeys.all, 'deliveries', clientId, page, outcome],
    queryFn: () =>
      getJson<DeliveriesPage>(
        `/api/admin/clients/${id(clientId)}/deliveries${query({ page, outcome, limit: 10 })}`,
      ),
    enabled: clientId !== '',
    placeholderData: keepPreviousData,
  });
}

export function useDelivery(clientId: string, deliveryId: string | null) {
  return useQuery({
    queryKey: [...adminKeys.all, 'delivery', clientId, deliveryId],
    queryFn: () => getJson<Delivery>(`/api/admin/clients/${id(clientId)}/deliveries/${id(deliveryId ?? '')}`),
    enabled: deliveryId !== null,
  });
}

export function useSyncRuns(clientId: string, page: number) {
  return useQuery({
    queryKey: [...adminKeys.all, 'sync-runs', clientId, page],
    queryFn: () =>
      getJson<SyncRunsPage>(`/api/admin/clients/${id(clientId)}/sync-runs${query({ page, limit: 10 })}`),
    enabled: clientId !== '',
    placeholderData: keepPreviousData,
  });
}

export interface AuditFilters {
  adminId: string;
  clientId: string;
  action: string;
  page: number;
}

export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: [...adminKeys.all, 'audit', filters],
    queryFn: () => getJson<AuditPage>(`/api/admin/audit${query({ ...filters, limit: 15 })}`),
    placeholderData: keepPreviousData,
  });
}

export function useAdmins() {
  return useQuery({
    queryKey: [...adminKeys.all, 'admins'],
    queryFn: () => getJson<AdminAccount[]>('/api/admin/admins'),
  });
}

/** A console write: refreshes every admin query (logs, history, analytics) and the calls. */
function useConsoleMutation<TVariables, TResult>(fn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useReplayDelivery = () =>
  useConsoleMutation(({ clientId, deliveryId }: { clientId: string; deliveryId: string }) =>
    apiJson<ReplayResult>('POST', `/api/admin/clients/${id(clientId)}/deliveries/${id(deliveryId)}/replay`),
  );

/** "Sync now": the client's sync for the admin, followed to its end when it runs on in the background. */
export function useSyncClient() {
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const mutation = useConsoleMutation((clientId: string) =>
    syncAndFollow(setProgress, `/api/admin/clients/${id(clientId)}/sync`).finally(() => setProgress(null)),
  );
  return { ...mutation, progress };
}

export const useTestCall = () =>
  useConsoleMutation(({ clientId, phoneNumber }: { clientId: string; phoneNumber: string }) =>
    apiJson<TestCallResult>('POST', `/api/admin/clients/${id(clientId)}/test-call`, { phoneNumber }),
  );

export const useCreateAdmin = () =>
  useConsoleMutation((body: { username: string; name: string }) =>
    apiJson<AdminCredentials>('POST', '/api/admin/admins', body),
  );

export const useAdminAction = () =>
  useConsoleMutation(({ adminId, action }: { adminId: string; action: 'deactivate' | 'activate' }) =>
    apiJson<AdminAccount>('POST', `/api/admin/admins/${id(adminId)}/${action}`),
  );

export const useResetAdminPassword = () =>
  useConsoleMutation((adminId: string) =>
    apiJson<AdminCredentials>('POST', `/api/admin/admins/${id(adminId)}/reset-password`),
  );
