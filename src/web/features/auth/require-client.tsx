/**
 * Client-only pages: waits for the session check ("Loading..."), then renders the page with the
 * client, or, with no client, redirects (to / unless told otherwise) or shows `unauthenticated`.
 */
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'wouter';
import type { ClientSession } from '../../../contract/auth';
import { PageLoading } from '../../components/page-loading';
import { isSettledWithoutSession, useClientSession } from '../../lib/session';
import { useClientTwoFactorGate } from './use-two-factor-gate';

export interface RequireClientProps {
  children: ReactNode | ((client: ClientSession) => ReactNode);
  /** Where to send a visitor without a client session. */
  redirectTo?: string;
  /** Shown instead of redirecting (the settings page says "Please log in to access settings"). */
  unauthenticated?: ReactNode;
  /** Keeps "Loading..." (and the two-factor check) until the page's first read is in (issue 41). */
  waitFor?: boolean;
}

export function RequireClient({
  children,
  redirectTo = '/',
  unauthenticated,
  waitFor = false,
}: RequireClientProps) {
  const session = useClientSession();
  const [, navigate] = useLocation();
  const client = session.data ?? null;
  const settledWithoutClient = isSettledWithoutSession(session);
  const shouldRedirect = settledWithoutClient && unauthenticated === undefined;
  // The first screen's read carries the two-factor state: asked only once that read is in.
  useClientTwoFactorGate(client !== null && !waitFor);

  useEffect(() => {
    if (shouldRedirect) navigate(redirectTo, { replace: true });
  }, [shouldRedirect, navigate, redirectTo]);

  if (client && !waitFor) return <>{typeof children === 'function' ? children(client) : children}</>;
  if (settledWithoutClient && unauthenticated !== undefined) return <>{unauthenticated}</>;
  return <PageLoading />;
}
