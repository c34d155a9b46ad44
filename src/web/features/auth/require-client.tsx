/**
 * Client-only pages: waits for the session check ("Loading..."), then renders the page with the
 * client, or, with no client, redirects (to / unless told otherwise) or shows `unauthenticated`.
 */
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'wouter';
import type { ClientSession } from '../../../contract/auth';
import { PageLoading } from '../../components/page-loading';
import { PlatformDetailsProvider } from '../../lib/platform-details';
import { isSettledWithoutSession, useClientSession } from '../../lib/session';
import { useClientTwoFactorGate } from './use-two-factor-gate';

export const CHOOSE_PASSWORD_PATH = '/choose-password';

export interface RequireClientProps {
  children: ReactNode | ((client: ClientSession) => ReactNode);
  /** Where to send a visitor without a client session. */
  redirectTo?: string;
  /** Shown instead of redirecting (the settings page says "Please log in to access settings"). */
  unauthenticated?: ReactNode;
}

export function RequireClient({ children, redirectTo = '/', unauthenticated }: RequireClientProps) {
  const session = useClientSession();
  const [, navigate] = useLocation();
  const client = session.data ?? null;
  const settledWithoutClient = isSettledWithoutSession(session);
  const shouldRedirect = settledWithoutClient && unauthenticated === undefined;
  // On a dashboard the two-factor state comes with the first screen's read: the status query
  // waits for it (lib/first-screen-pending.ts), so the gate decides once that read is in.
  // Until an agency-chosen password is replaced, every other read answers 403: choose it first.
  const mustChangePassword = client?.mustChangePassword === true;
  useClientTwoFactorGate(client !== null && !mustChangePassword);

  useEffect(() => {
    if (mustChangePassword) navigate(CHOOSE_PASSWORD_PATH, { replace: true });
    else if (shouldRedirect) navigate(redirectTo, { replace: true });
  }, [mustChangePassword, shouldRedirect, navigate, redirectTo]);

  if (client && !mustChangePassword) {
    return (
      // A session cached from an older server has no flag: the platform stays unnamed then.
      <PlatformDetailsProvider show={client.showPlatformDetails === true}>
        {typeof children === 'function' ? children(client) : children}
      </PlatformDetailsProvider>
    );
  }
  if (settledWithoutClient && unauthenticated !== undefined) return <>{unauthenticated}</>;
  return <PageLoading />;
}
