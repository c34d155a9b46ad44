/**
 * Who is logged in, and the ways out (SPEC §4 "Client session", §7, §8, §9). The client session is
 * checked on every mount and window focus; an admin session on every mount. No data (null) means
 * "not logged in"; components never look at cookies.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { AdminSession, ClientSession } from '../../contract/auth';
import type { SessionUser } from '../../contract/teams';
import { apiJson, getQueryFn } from './api';
import { useBrand } from './brand';
import { failureToast } from './failure-toast';
import { toast } from './use-toast';

export const sessionKeys = {
  client: ['/api/client/session'] as const,
  admin: ['/api/admin/session'] as const,
};

/**
 * The client session as the browser holds it: GET /api/client/session adds `user`, but
 * a login's answer (cached until the refetch right after it) has none, so `user` may be missing for
 * a moment; permission checks treat that as "not yet" (lib/permissions.ts).
 */
export type BrowserClientSession = ClientSession & { user?: SessionUser; mustChangePassword?: true };

/** Logout and unauthorized redirects wait this long so the toast is seen first (SPEC §9). */
export const REDIRECT_DELAY_MS = 500;

export function useClientSession({ follow = false }: { follow?: boolean } = {}) {
  return useQuery({
    queryKey: sessionKeys.client,
    queryFn: getQueryFn<BrowserClientSession>({ on401: 'returnNull' }),
    staleTime: 0,
    // `follow`: a part of the page reading the session the page's check (RequireClient) keeps
    // current; mounting it is not another check (the dashboard asked twice).
    refetchOnMount: !follow,
    refetchOnWindowFocus: !follow,
    retry: false,
  });
}

/** A logged-in client reaching an admin path gets 403: for this page that is "no admin" too. */
export function useAdminSession() {
  return useQuery({
    queryKey: sessionKeys.admin,
    queryFn: getQueryFn<AdminSession>({ on401: 'returnNull', alsoNullOn: [403] }),
    staleTime: 0,
    retry: false,
  });
}

/**
 * True once the check finished without anybody logged in. Only a finished check counts: a stale
 * "nobody" being re-checked (right after login) must not send anyone away.
 */
export function isSettledWithoutSession(session: {
  data?: unknown;
  isPending: boolean;
  isFetching: boolean;
}): boolean {
  return !session.data && !session.isPending && !session.isFetching;
}

/**
 * Leaves the page first and forgets cached data right after, so no guard on the page being left
 * sees an empty session and raises its own toast.
 */
function useLeaveAndForget() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (to: string) => {
    setTimeout(() => {
      navigate(to);
      queryClient.clear();
    }, REDIRECT_DELAY_MS);
  };
}

/** POST the logout, say so, then leave for `to` with an empty cache. `mutate()` to run it. */
function useLogoutFrom(path: string, loggedOut: { title: string; description?: string }, to: string) {
  const leave = useLeaveAndForget();
  return useMutation({
    mutationFn: () => apiJson<{ success: true }>('POST', path),
    onSuccess: () => {
      toast(loggedOut);
      leave(to);
    },
    onError: (error) => failureToast('Logout Failed', error),
  });
}

/**
 * Client logout: toast "Logged Out", then / (SPEC). Once the agency has saved its brand, the
 * client goes back to the agency's sign-in page instead: `/` is then the agency's public page,
 * and a client who just left wants the way back in.
 */
export function useLogout() {
  const { saved } = useBrand();
  return useLogoutFrom(
    '/api/client/logout',
    { title: 'Logged Out', description: 'You have been logged out successfully' },
    saved ? '/client-login' : '/',
  );
}

/** Admin logout: toast "Logged out", then /admin-login. */
export function useAdminLogout() {
  return useLogoutFrom('/api/admin/logout', { title: 'Logged out' }, '/admin-login');
}

/**
 * What a client page does when an action answers "unauthorized" (SPEC §8 "Calls"): say so, then
 * go through /api/login (which leads to the login page) after the redirect delay.
 */
export function handleUnauthorized(): void {
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    window.location.href = '/api/login';
  }, REDIRECT_DELAY_MS);
}
