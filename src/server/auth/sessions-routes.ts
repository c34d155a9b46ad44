/**
 * GET /api/client/sessions, DELETE /api/client/sessions/{id}, POST /api/client/sessions/end-others
 *: a signed-in person's own sessions, and ending them. Any user reaches these
 * ('signed_in'), only ever about themselves: another user's or client's session is a 404. Ending
 * one's current session signs this browser out. Each ending is a `session_ended` activity line,
 * written in the transaction of the delete.
 */
import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../contract/common';
import {
  EndOtherSessionsResponse,
  EndSessionResponse,
  SESSION_MESSAGES,
  SessionIdParam,
  UserSessionList,
} from '../../contract/sessions';
import { describeDevice } from '../../contract/user-agent';
import { recordActivity } from '../activity/record';
import { sha256Hex } from '../crypto/secrets';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { requireClientUser } from './guards';
import { clearSessionCookie, sessionCookie } from './sessions';
import {
  deleteOtherUserSessions,
  deleteUserSession,
  findUserSession,
  listUserSessions,
  type UserSessionRow,
} from './user-sessions';

const SIGNED_IN = { config: { permission: 'signed_in' as const } };

export default async function sessionsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, config } = app.deps;
  const cookieOpts = { secure: config.publicUrl.startsWith('https://') };

  /** The hash of this request's session: the guard has just resolved it, so it is present. */
  const currentHash = (request: Parameters<typeof sessionCookie>[0]) =>
    sha256Hex(sessionCookie(request, 'client') ?? '');

  const whereFrom = (row: UserSessionRow) => ({ device: describeDevice(row.user_agent), ip: row.ip });

  app.get(
    '/api/client/sessions',
    {
      ...SIGNED_IN,
      schema: {
        summary: 'Where the signed-in person is signed in (this device marked)',
        tags: ['client'],
        response: { 200: UserSessionList },
      },
    },
    async (request) => {
      const user = requireClientUser(request);
      const current = currentHash(request);
      const rows = await listUserSessions(db, user, now());
      return rows.map((row) => ({
        id: row.public_id,
        current: row.id_hash === current,
        ...whereFrom(row),
        createdAt: isoTime(row.created_at) ?? '',
        lastSeenAt: isoTime(row.last_seen_at) ?? '',
      }));
    },
  );

  app.delete(
    '/api/client/sessions/:id',
    {
      ...SIGNED_IN,
      schema: {
        summary: 'End one of the signed-in person’s sessions (the current one signs this browser out)',
        tags: ['client'],
        params: SessionIdParam,
        response: { 200: EndSessionResponse },
      },
    },
    async (request, reply) => {
      const user = requireClientUser(request);
      const found = await findUserSession(db, user, request.params.id, now());
      if (!found) throw notFound(SESSION_MESSAGES.notFound);
      const signedOut = found.id_hash === currentHash(request);
      await db.transaction().execute(async (trx) => {
        await deleteUserSession(trx, user, found.id_hash);
        await recordActivity(
          trx,
          {
            clientId: user.client_id,
            userId: user.id,
            action: 'session_ended',
            detail: { ...whereFrom(found), current: signedOut },
          },
          now(),
        );
      });
      if (signedOut) clearSessionCookie(reply, 'client', cookieOpts);
      return { success: true as const, signedOut };
    },
  );

  app.post(
    '/api/client/sessions/end-others',
    {
      ...SIGNED_IN,
      schema: {
        summary: 'End every other session of the signed-in person',
        tags: ['client'],
        response: { 200: EndOtherSessionsResponse },
      },
    },
    async (request) => {
      const user = requireClientUser(request);
      const ended = await db.transaction().execute(async (trx) => {
        const count = await deleteOtherUserSessions(trx, user, currentHash(request));
        if (count > 0)
          await recordActivity(
            trx,
            { clientId: user.client_id, userId: user.id, action: 'session_ended', detail: { others: count } },
            now(),
          );
        return count;
      });
      return { ended };
    },
  );
}
