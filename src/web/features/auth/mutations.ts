/**
 * The two ways in (SPEC §4, §8 "Client login", "Admin"): each POSTs the credentials, starts from
 * an empty cache holding the new session, says welcome and opens its home page.
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

function useLogin<TBody, TAnswer>(options: LoginOptions<TAnswer>) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (body: TBody) => apiJson<TAnswer>('POST', options.path, body),
    onSuccess: (answer) => {
      // A new identity: nothing cached for whoever used this browser before may carry over.
      queryClient.clear();
      queryClient.setQueryData(options.sessionKey, options.sessionOf(answer));
      void queryClient.invalidateQueries({ queryKey: options.sessionKey });
      toast({ title: 'Login Successful', description: options.welcome(answer) });
      navigate(options.home);
    },
    onError: (error) => failureToast('Login Failed', error, options.failure),
  });
}

export function useClientLogin() {
  return useLogin<ClientLoginBody, ClientLoginResponse>({
    path: '/api/client/login',
    sessionKey: sessionKeys.client,
    sessionOf: (answer) => answer.client,
    welcome: () => 'Welcome to your dashboard',
    failure: 'Invalid email or password',
    home: '/dashboard',
  });
}

export function useAdminLogin() {
  return useLogin<AdminLoginBody, AdminSession>({
    path: '/api/admin/login',
    sessionKey: sessionKeys.admin,
    sessionOf: (admin) => admin,
    welcome: (admin) => `Welcome back, ${admin.name || admin.username}!`,
    failure: 'Invalid credentials. Please try again.',
    home: '/admin',
  });
}
