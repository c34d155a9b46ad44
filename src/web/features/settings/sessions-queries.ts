/** The signed-in person's sessions: the list, ending one, ending all the others. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndOtherSessionsResponse, EndSessionResponse, UserSession } from '../../../contract/sessions';
import { apiJson, getJson } from '../../lib/api';
import { sessionKeys } from '../../lib/session';

export const mySessionsKey = ['me', 'sessions'] as const;

export function useMySessions() {
  return useQuery({
    queryKey: mySessionsKey,
    queryFn: () => getJson<UserSession[]>('/api/client/sessions'),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson<EndSessionResponse>('DELETE', `/api/client/sessions/${encodeURIComponent(id)}`),
    onSuccess: (result) => {
      // Ending this browser's own session signs it out: the session probe sends it to the login.
      if (result.signedOut) void queryClient.invalidateQueries({ queryKey: sessionKeys.client });
      else void queryClient.invalidateQueries({ queryKey: mySessionsKey });
    },
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<EndOtherSessionsResponse>('POST', '/api/client/sessions/end-others'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: mySessionsKey }),
  });
}
