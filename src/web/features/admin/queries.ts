/**
 * Server state of the admin area: one key factory, one hook per endpoint (SPEC §7 "Admin").
 * Cache lifetimes follow SPEC §9: client data 60 s, stats 30 s, the rest until a write
 * invalidates it (every key starts with 'admin', see mutations.ts).
 */
import { useQuery } from '@tanstack/react-query';
import type {
  AdminClientData,
  AdminClientListItem,
  AdminStats,
  ClientConfig,
  WebhookStatus,
} from '../../../contract/admin';
import { WEBHOOK_POLL_INTERVAL_MS } from '../../../contract/admin-timings';
import { getJson } from '../../lib/api';
import { useSeededQuery } from '../../lib/first-screen-pending';

const id = (value: string) => encodeURIComponent(value);

export const adminKeys = {
  all: ['admin'] as const,
  clients: () => [...adminKeys.all, 'clients'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  config: (clientId: string) => [...adminKeys.all, 'client-config', clientId] as const,
  clientData: (clientId: string) => [...adminKeys.all, 'client-data', clientId] as const,
  webhookStatus: (clientId: string) => [...adminKeys.all, 'webhook-status', clientId] as const,
};

export const adminUrls = {
  clients: '/api/admin/clients',
  stats: '/api/admin/stats',
  config: (clientId: string) => `/api/admin/client-config/${id(clientId)}`,
  clientData: (clientId: string) => `/api/admin/client-data/${id(clientId)}`,
  webhookStatus: (clientId: string) => `/api/admin/webhook-status/${id(clientId)}`,
};

export const CLIENT_DATA_STALE_MS = 60_000;
export const ADMIN_STATS_STALE_MS = 30_000;

export function useAdminClients() {
  return useQuery({
    queryKey: adminKeys.clients(),
    queryFn: () => getJson<AdminClientListItem[]>(adminUrls.clients),
  });
}

export function useAdminStats() {
  return useQuery({
    queryKey: adminKeys.stats(),
    queryFn: () => getJson<AdminStats>(adminUrls.stats),
    staleTime: ADMIN_STATS_STALE_MS,
    refetchOnWindowFocus: false,
  });
}

/** Read fresh each time the edit dialog opens: another admin may have changed it. */
export function useClientConfig(clientId: string | null) {
  return useQuery({
    queryKey: adminKeys.config(clientId ?? ''),
    queryFn: () => getJson<ClientConfig>(adminUrls.config(clientId ?? '')),
    enabled: clientId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

export const clientDataQuery = (clientId: string) => ({
  queryKey: adminKeys.clientData(clientId),
  queryFn: () => getJson<AdminClientData>(adminUrls.clientData(clientId)),
  staleTime: CLIENT_DATA_STALE_MS,
  refetchOnWindowFocus: false,
});

/** Seeded by the client view's first-screen read. */
export function useAdminClientData(clientId: string | undefined) {
  return useSeededQuery({ ...clientDataQuery(clientId ?? ''), enabled: Boolean(clientId) });
}

/** SPEC §4: polled every 2 s while the wizard waits for the test call. */
export function useWebhookStatus(clientId: string | null, polling: boolean) {
  return useQuery({
    queryKey: adminKeys.webhookStatus(clientId ?? ''),
    queryFn: () => getJson<WebhookStatus>(adminUrls.webhookStatus(clientId ?? '')),
    enabled: polling && clientId !== null,
    refetchInterval: polling ? WEBHOOK_POLL_INTERVAL_MS : false,
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
  });
}
