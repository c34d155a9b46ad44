/**
 * Settings-only server state. The notification preferences sit under the billing key prefix
 * (lib/billing-queries) so a payment refreshes them with the rest of the account's billing data.
 */
import { useQuery } from '@tanstack/react-query';
import type { NotificationPrefs } from '../../../contract/account';
import { getJson } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';

export function useNotificationPrefs() {
  return useQuery({
    queryKey: billingKeys.notifications(),
    queryFn: () => getJson<NotificationPrefs>('/api/client/notifications'),
  });
}
