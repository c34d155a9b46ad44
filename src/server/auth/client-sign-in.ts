/**
 * Signing a client's user in, shared by the login and an accepted invitation: the same
 * rules decide who may, and the same session cookie comes out.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context';
import type { ClientRow, ClientUserRow } from '../db/schema';
import { deviceOf, sessionCookie, setSessionCookie } from './sessions';

/** An active user of an active, onboarded client. */
export function canSignIn(found: { client: ClientRow; user: Pick<ClientUserRow, 'status'> }): boolean {
  return (
    found.client.is_active === 1 &&
    found.client.onboarding_status === 'active' &&
    found.user.status === 'active'
  );
}

/** Opens a client session for this user and sets its cookie, discarding the browser's previous one. */
export async function signInClientUser(
  deps: Pick<AppDeps, 'sessions' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
  clientId: string,
  userId: string,
): Promise<void> {
  await deps.sessions.destroy(sessionCookie(request, 'client'));
  const rawId = await deps.sessions.create('client', clientId, userId, deviceOf(request));
  setSessionCookie(reply, 'client', rawId, { secure: deps.config.publicUrl.startsWith('https://') });
}
