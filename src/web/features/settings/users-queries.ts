/** Settings › Users: the client's people and the writes on them, one hook per endpoint. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientUser, InviteUserBody, UpdateUserBody } from '../../../contract/teams';
import { apiJson, getJson } from '../../lib/api';
import { sessionKeys } from '../../lib/session';

export const usersKey = ['/api/client/users'] as const;
const userPath = (id: string) => `/api/client/users/${encodeURIComponent(id)}`;

export function useClientUsers() {
  return useQuery({ queryKey: usersKey, queryFn: () => getJson<ClientUser[]>('/api/client/users') });
}

/** Every write refreshes the list, and the session (a change to oneself changes what one may do). */
function useUsersWrite<TArgs, TAnswer>(write: (args: TArgs) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: usersKey });
      void queryClient.invalidateQueries({ queryKey: sessionKeys.client });
    },
  });
}

export const useInviteUser = () =>
  useUsersWrite((body: InviteUserBody) => apiJson<ClientUser>('POST', '/api/client/users', body));

export const useUpdateUser = () =>
  useUsersWrite(({ id, ...body }: UpdateUserBody & { id: string }) =>
    apiJson<ClientUser>('PATCH', userPath(id), body),
  );

export const useRemoveUser = () =>
  useUsersWrite((id: string) => apiJson<{ success: true }>('DELETE', userPath(id)));

export const useResendInvite = () =>
  useUsersWrite((id: string) => apiJson<ClientUser>('POST', `${userPath(id)}/resend-invite`));
