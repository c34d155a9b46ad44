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
  NotificationPrefs,
  WebhookSecretResponse,
} from '../../../contract/account';
import type {
  CancelSubscriptionResponse,
  ChangePlanResponse,
  PaymentAction,
  PaymentMethodResponse,
  ResumeSubscriptionResponse,
  SetupIntentResponse,
} from '../../../contract/billing';
import type { ClientWebhookSaved, WebhookDelivery, WebhookTestResult } from '../../../contract/integrations';
import type { MyNotifications, MyNotificationsBodyInput } from '../../../contract/notification-choices';
import type { Outcome, OutcomePreview, OutcomesState } from '../../../contract/outcomes';
import { apiJson, getJson } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';
import { sessionKeys } from '../../lib/session';
import { callKeys } from '../calls/query-keys';
import { myNotificationsKey, webhookKeys } from './queries';

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

/** Withdraws a pending cancellation (card subscriptions). */
export function useResumeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<ResumeSubscriptionResponse>('POST', '/api/client/subscription/resume'),
    onSuccess: (result) => {
      queryClient.setQueryData(billingKeys.subscription(), result.subscription);
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    },
  });
}

/**
 * Changes plan at the previewed price; a 3-D Secure request is confirmed with Stripe.js (loaded
 * only then) and the server asked again. Answers the final, successful result.
 */
export function useChangePlan(publishableKey: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ planId, prorationDate }: { planId: string; prorationDate: number }) => {
      const result = await apiJson<ChangePlanResponse>('POST', '/api/client/subscription/change-plan', {
        planId,
        prorationDate,
      });
      if (result.success) return result;
      if (!('clientSecret' in result) || !publishableKey) throw new Error(result.message);
      const { getStripe } = await import('../../components/stripe-card');
      const stripe = await getStripe(publishableKey);
      if (!stripe) throw new Error('Stripe could not be loaded');
      const confirmed = await stripe.confirmCardPayment(result.clientSecret);
      if (confirmed.error) throw new Error(confirmed.error.message ?? 'Payment processing failed');
      const final = await apiJson<ChangePlanResponse>('POST', '/api/client/subscription/confirm-change', {
        planId,
      });
      // Paid, and Stripe applies the change a moment later: not a failure.
      if (!final.success && !('pending' in final)) throw new Error(final.message);
      return final;
    },
    onSuccess: (result) => {
      if (result.success) queryClient.setQueryData(billingKeys.subscription(), result.subscription);
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    },
  });
}

export function useSaveNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: NotificationPrefs) =>
      apiJson<NotificationPrefs>('PUT', '/api/client/notifications', prefs),
    onSuccess: (saved) => {
      queryClient.setQueryData(billingKeys.notifications(), saved);
      // The account's switches are what "Account default" follows in My notifications.
      void queryClient.invalidateQueries({ queryKey: myNotificationsKey });
    },
  });
}

/** The signed-in person's own choices. */
export function useSaveMyNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MyNotificationsBodyInput) =>
      apiJson<MyNotifications>('PUT', '/api/client/me/notifications', body),
    onSuccess: (saved) => queryClient.setQueryData(myNotificationsKey, saved),
  });
}

/** Texts a code to the number the person's texts would go to; the answer says a code is pending. */
export function useSendSmsCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MyNotifications>('POST', '/api/client/me/notifications/sms-code'),
    onSuccess: (state) => queryClient.setQueryData(myNotificationsKey, state),
  });
}

/** Confirms the texted code: the number is verified and texts may go to it. */
export function useConfirmSmsCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiJson<MyNotifications>('POST', '/api/client/me/notifications/sms-code/confirm', { code }),
    onSuccess: (state) => queryClient.setQueryData(myNotificationsKey, state),
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

/** A new provider webhook URL; the old one is refused from now on. The session shows the new one. */
export function useRotateProviderWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ webhookUrl: string }>('POST', '/api/client/rotate-webhook'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.client }),
  });
}

/**
 * Update Payment Method: the server opens a SetupIntent, Stripe.js confirms it with the new card
 * (3-D Secure once if the bank asks), and the saved card becomes the default, so renewals are
 * charged without the client.
 */
export function useReplaceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (confirmSetup: (clientSecret: string) => Promise<string>) => {
      const { clientSecret } = await apiJson<SetupIntentResponse>(
        'POST',
        '/api/client/payment-method/setup-intent',
      );
      const setupIntentId = await confirmSetup(clientSecret);
      return apiJson<PaymentMethodResponse>('PUT', '/api/client/payment-method', { setupIntentId });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: billingKeys.subscription() }),
  });
}

/** Completes a renewal the bank wants confirmed: Stripe.js confirms, then the server checks with Stripe. */
export function useConfirmRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (confirmPayment: (clientSecret: string) => Promise<void>) => {
      const { clientSecret } = await getJson<PaymentAction>('/api/client/payment-action');
      await confirmPayment(clientSecret);
      return apiJson<{ success: true }>('POST', '/api/client/payment-action/confirm');
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: billingKeys.subscription() }),
  });
}

/** Saves the outcome list; every calls read (strip, chart, log) is refreshed once it is stored. */
export function useSaveOutcomes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (outcomes: Outcome[]) => apiJson<OutcomesState>('PUT', '/api/client/outcomes', { outcomes }),
    onSuccess: async (state) => {
      queryClient.setQueryData(callKeys.outcomesList(), state);
      await queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
  });
}

/** What an unsaved list would make of the last 30 days' calls; nothing is stored. */
export function usePreviewOutcomes() {
  return useMutation({
    mutationFn: (outcomes: Outcome[]) =>
      apiJson<OutcomePreview>('POST', '/api/client/outcomes/preview', { outcomes }),
  });
}

/** Webhook notifications: every change refreshes the endpoint and its delivery log. */
function useWebhookMutation<TInput, TResult>(fn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export const useSaveWebhookUrl = () =>
  useWebhookMutation((url: string) =>
    apiJson<ClientWebhookSaved>('PUT', '/api/client/integrations/webhook', { url }),
  );
export const useRotateWebhookSecret = () =>
  useWebhookMutation(() => apiJson<ClientWebhookSaved>('POST', '/api/client/integrations/webhook/rotate'));
export const useRemoveWebhook = () =>
  useWebhookMutation(() => apiJson<{ success: true }>('DELETE', '/api/client/integrations/webhook'));
export const useSendTestEvent = () =>
  useWebhookMutation(() => apiJson<WebhookTestResult>('POST', '/api/client/integrations/webhook/test'));
export const useResendDelivery = () =>
  useWebhookMutation((id: string) =>
    apiJson<WebhookDelivery>(
      'POST',
      `/api/client/integrations/webhook/deliveries/${encodeURIComponent(id)}/resend`,
    ),
  );
