/** The agency's view of one client's team: the list and the three support actions. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientUser } from '../../../contract/teams';
import { apiJson, getJson } from '../../lib/api';
import { useSeededQuery } from '../../lib/first-screen-pending';

const usersUrl = (clientId: string) => `/api/admin/clients/${encodeURIComponent(clientId)}/users`;
export const adminClientUsersKey = (clientId: string) => ['admin', 'client-users', clientId] as const;

export function useAdminClientUsers(clientId: string) {
  // Seeded by the client view's first-screen read.
  return useSeededQuery({
    queryKey: adminClientUsersKey(clientId),
    queryFn: () => getJson<ClientUser[]>(usersUrl(clientId)),
  });
}

/** resend-invite, reset-password, reset-2fa (H2's route): each refreshes the list. */
export type AdminUserAction = 'resend-invite' | 'reset-password' | 'reset-2fa';

export function useAdminUserAction(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, action }: { userId: string; action: AdminUserAction }) =>
      apiJson<unknown>('POST', `${usersUrl(clientId)}/${encodeURIComponent(userId)}/${action}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminClientUsersKey(clientId) }),
  });
}
