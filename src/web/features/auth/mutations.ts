/**
 * The two ways in (SPEC §4, §8 "Client login", "Admin"): each POSTs the credentials, starts from
 * an empty cache holding the new session, says welcome and opens its home page. With two-factor
 * sign-in on the password answers `{twoFactorRequired: true}` instead, and the code
 * POSTed to the login's `/2fa` finishes the same way.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
// Types only: the contract's runtime half carries Zod, which the login pages do not need.
import type {
  AdminLoginBody,
  AdminSession,
  ClientLoginBody,
  ClientLoginResponse,
} from '../../../contract/auth';
import type { TwoFactorRequired } from '../../../contract/two-factor';
import { apiJson } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { sessionKeys } from '../../lib/session';
import { toast } from '../../lib/use-toast';

interface LoginOptions<TAnswer> {
  path: string;
  sessionKey: readonly string[];
  sessionOf: (answer: TAnswer) => unknown;
  welcome: (answer: TAnswer) => string;
  /** Shown when the server gives no message of its own. */
  failure: string;
  home: string;
}

function useSignedIn<TAnswer>(options: LoginOptions<TAnswer>) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (answer: TAnswer) => {
    // A new identity: nothing cached for whoever used this browser before may carry over.
    queryClient.clear();
    queryClient.setQueryData(options.sessionKey, options.sessionOf(answer));
    void queryClient.invalidateQueries({ queryKey: options.sessionKey });
    toast({ title: 'Login Successful', description: options.welcome(answer) });
    navigate(options.home);
  };
}

function useLogin<TBody, TAnswer>(options: LoginOptions<TAnswer>, onTwoFactor: () => void) {
  const signedIn = useSignedIn(options);
  return useMutation({
    mutationFn: (body: TBody) => apiJson<TAnswer | TwoFactorRequired>('POST', options.path, body),
    onSuccess: (answer) => {
      if (isTwoFactorRequired(answer)) onTwoFactor();
      else signedIn(answer);
    },
    onError: (error) => failureToast('Login Failed', error, options.failure),
  });
}

/** The second step: the code completes the sign-in the password started. */
function useLoginCode<TAnswer>(options: LoginOptions<TAnswer>) {
  const signedIn = useSignedIn(options);
  return useMutation({
    mutationFn: (code: string) => apiJson<TAnswer>('POST', `${options.path}/2fa`, { code }),
    onSuccess: signedIn,
  });
}

function isTwoFactorRequired(answer: unknown): answer is TwoFactorRequired {
  return typeof answer === 'object' && answer !== null && 'twoFactorRequired' in answer;
}

const CLIENT_LOGIN: LoginOptions<ClientLoginResponse> = {
  path: '/api/client/login',
  sessionKey: sessionKeys.client,
  // The session answer says it too; the login's is cached until that refetch, so it must say it now.
  sessionOf: (answer) =>
    answer.mustChangePassword ? { ...answer.client, mustChangePassword: true } : answer.client,
  welcome: (answer) =>
    answer.mustChangePassword ? 'Choose your own password to continue' : 'Welcome to your dashboard',
  failure: 'Invalid email or password',
  home: '/dashboard',
};

const ADMIN_LOGIN: LoginOptions<AdminSession> = {
  path: '/api/admin/login',
  sessionKey: sessionKeys.admin,
  sessionOf: (admin) => admin,
  welcome: (admin) => `Welcome back, ${admin.name || admin.username}!`,
  failure: 'Invalid credentials. Please try again.',
  home: '/admin',
};

export function useClientLogin(onTwoFactor: () => void) {
  return useLogin<ClientLoginBody, ClientLoginResponse>(CLIENT_LOGIN, onTwoFactor);
}

export function useClientLoginCode() {
  return useLoginCode(CLIENT_LOGIN);
}

export function useAdminLogin(onTwoFactor: () => void) {
  return useLogin<AdminLoginBody, AdminSession>(ADMIN_LOGIN, onTwoFactor);
}

export function useAdminLoginCode() {
  return useLoginCode(ADMIN_LOGIN);
}
