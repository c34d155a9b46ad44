/**
 * Settings-only server state. The notification preferences sit under the billing key prefix
 * (lib/billing-queries) so a payment refreshes them with the rest of the account's billing data.
 */
import { useQuery } from '@tanstack/react-query';
import type { NotificationChannels, NotificationPrefs } from '../../../contract/account';
import type { ClientWebhook, WebhookDeliveries } from '../../../contract/integrations';
import type { MyNotifications } from '../../../contract/notification-choices';
import type { OutcomesState } from '../../../contract/outcomes';
import { getJson } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';
import { callKeys } from '../calls/query-keys';

export function useNotificationPrefs(enabled = true) {
  return useQuery({
    enabled,
    queryKey: billingKeys.notifications(),
    queryFn: () => getJson<NotificationPrefs>('/api/client/notifications'),
  });
}

/**
 * The client's outcomes and how far re-classifying its calls got; polled each second while a
 * re-classification runs, so the tab's progress bar moves.
 */
export function useOutcomesState() {
  return useQuery({
    queryKey: callKeys.outcomesList(),
    queryFn: () => getJson<OutcomesState>('/api/client/outcomes'),
    refetchInterval: (query) => (query.state.data?.reclassification.state === 'running' ? 1000 : false),
  });
}

/** Which channels the server can send on (e-mail needs SMTP, texts Twilio and a phone number). */
export function useNotificationChannels(enabled = true) {
  return useQuery({
    enabled,
    queryKey: [...billingKeys.notifications(), 'channels'],
    queryFn: () => getJson<NotificationChannels>('/api/client/notifications/channels'),
  });
}

export const webhookKeys = {
  all: ['integrations', 'webhook'] as const,
  endpoint: () => [...webhookKeys.all, 'endpoint'] as const,
  deliveries: (page: number) => [...webhookKeys.all, 'deliveries', page] as const,
};

export function useWebhookEndpoint() {
  return useQuery({
    queryKey: webhookKeys.endpoint(),
    queryFn: () => getJson<ClientWebhook>('/api/client/integrations/webhook'),
  });
}

/** The delivery log; re-read every 10 s while something is still waiting to be retried. */
export function useWebhookDeliveries(page: number, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.deliveries(page),
    queryFn: () => getJson<WebhookDeliveries>(`/api/client/integrations/webhook/deliveries?page=${page}`),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === 'pending') ? 10_000 : false,
  });
}

/** The signed-in person's own notification choices; every user may read their own. */
export const myNotificationsKey = ['me', 'notifications'] as const;

export function useMyNotifications() {
  return useQuery({
    queryKey: myNotificationsKey,
    queryFn: () => getJson<MyNotifications>('/api/client/me/notifications'),
  });
}
