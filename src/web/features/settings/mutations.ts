/**
 * Settings writes, one hook per endpoint. Each refreshes what it changed (the session for the
 * account and the API key, the billing keys for the subscription); the toasts live with the
 * components that know the words (SPEC §8 "Account and subscription").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AccountFormInput,
  AccountUpdateResponse,
  ApiKeyResponse,
  ChangePasswordBody,
  WebhookSecretResponse,
  NotificationPrefs,
} from '../../../contract/account';
import type { CancelSubscriptionResponse, PaymentMethodResponse } from '../../../contract/billing';
import { apiJson } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';
import { sessionKeys } from '../../lib/session';

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: AccountFormInput) =>
      apiJson<AccountUpdateResponse>('PUT', '/api/client/account', values),
    onSuccess: (result) => {
      // The answer is the refreshed session; refetching confirms it (SPEC §7: session is refreshed).
      queryClient.setQueryData(sessionKeys.client, result.client);
      void queryClient.invalidateQueries({ queryKey: sessionKeys.client });
    },
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<CancelSubscriptionResponse>('POST', '/api/client/subscription/cancel'),
    onSuccess: (result) => {
      queryClient.setQueryData(billingKeys.subscription(), result.subscription);
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    },
  });
}

export function useSaveNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: NotificationPrefs) =>
      apiJson<NotificationPrefs>('PUT', '/api/client/notifications', prefs),
    onSuccess: (saved) => queryClient.setQueryData(billingKeys.notifications(), saved),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiJson<{ success: true }>('POST', '/api/client/change-password', body),
  });
}

export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blandApiKey: string) =>
      apiJson<ApiKeyResponse>('PUT', '/api/client/api-key', { blandApiKey }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.client }),
  });
}

/** A new signing secret, or null to remove it. */
export function useSetWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secret: string | null) =>
      apiJson<WebhookSecretResponse>('PUT', '/api/client/webhook-signing-secret', { secret }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.client }),
  });
}

export function useReplaceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethodId: string) =>
      apiJson<PaymentMethodResponse>('PUT', '/api/client/payment-method', { paymentMethodId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: billingKeys.subscription() }),
  });
}
