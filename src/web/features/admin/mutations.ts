/**
 * Admin writes (SPEC §7 "Admin"). Every successful write refreshes the admin caches and, where
 * calls change, the calls caches, by key prefix; the toasts live with the components that
 * know the words (SPEC §8).
 */
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookSecretResponse } from '../../../contract/account';
import type {
  ClientConfigUpdateResponse,
  CreateClientFormInput,
  CredentialsResponse,
  EditClientFormInput,
  FinalizeResponse,
  SyncAllResult,
  WebhookGenerated,
} from '../../../contract/admin';
import { apiJson } from '../../lib/api';
import { callKeys } from '../calls/query-keys';
import { adminKeys, adminUrls } from './queries';

const id = (value: string) => encodeURIComponent(value);

function refreshAdmin(queryClient: QueryClient, alsoCalls = false) {
  void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  if (alsoCalls) void queryClient.invalidateQueries({ queryKey: callKeys.all });
}

/** A mutation whose success refreshes the admin caches (and the calls caches when asked). */
function useAdminMutation<TVariables, TResult>(
  fn: (variables: TVariables) => Promise<TResult>,
  alsoCalls = false,
) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => refreshAdmin(queryClient, alsoCalls) });
}

export function useSyncAllClients() {
  return useAdminMutation(() => apiJson<SyncAllResult>('POST', '/api/admin/sync-all-clients'), true);
}

export function useGenerateCredentials() {
  return useAdminMutation((clientId: string) =>
    apiJson<CredentialsResponse>('POST', `/api/admin/clients/${id(clientId)}/generate-credentials`),
  );
}

export function useUpdateClientConfig() {
  return useAdminMutation(
    ({ clientId, values }: { clientId: string; values: EditClientFormInput }) =>
      apiJson<ClientConfigUpdateResponse>('PUT', adminUrls.config(clientId), values),
    true,
  );
}

export function useRotateWebhook() {
  return useAdminMutation((clientId: string) =>
    apiJson<{ webhookUrl: string }>('POST', `/api/admin/clients/${id(clientId)}/rotate-webhook`),
  );
}

export function useSetDraftWebhookSecret() {
  return useAdminMutation(({ clientId, secret }: { clientId: string; secret: string | null }) =>
    apiJson<WebhookSecretResponse>('PUT', `/api/admin/clients/${id(clientId)}/webhook-signing-secret`, {
      secret,
    }),
  );
}

export function useDeleteClient() {
  return useAdminMutation(
    (clientId: string) => apiJson<{ success: true }>('DELETE', `/api/admin/clients/${id(clientId)}`),
    true,
  );
}

export function useGenerateWebhook() {
  return useAdminMutation((values: CreateClientFormInput) =>
    apiJson<WebhookGenerated>('POST', '/api/admin/generate-webhook', values),
  );
}

export function useFinalizeClient() {
  return useAdminMutation((clientId: string) =>
    apiJson<FinalizeResponse>('POST', `/api/admin/finalize-client/${id(clientId)}`),
  );
}
