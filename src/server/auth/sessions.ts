/**
 * Database-backed sessions, so any app instance can serve any request and a session can be
 * revoked (logout, credentials reset, client deleted). The cookie holds a random id; the
 * database holds only its sha256.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { sessionWithSubject } from '../clients/clients-joined';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { AdminRow, ClientRow, Database, SessionKind } from '../db/schema';

/** What a session of each kind signs in. */
export interface SubjectOf {
  client: ClientRow;
  admin: AdminRow;
}

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export const COOKIE_NAMES: Record<SessionKind, string> = { client: 'client_sid', admin: 'admin_sid' };

export interface SessionStore {
  create(kind: SessionKind, subjectId: string): Promise<string>;
  /**
   * The client or admin of a live session, read with the session in one query (every signed-in
   * request asks), or null. Extends the expiry when due.
   */
  resolve<K extends SessionKind>(kind: K, rawId: string | undefined): Promise<SubjectOf[K] | null>;
  destroy(rawId: string | undefined): Promise<void>;
  destroyAllFor(kind: SessionKind, subjectId: string, exceptRawId?: string): Promise<void>;
}

export function createSessionStore(db: Kysely<Database>, now: () => number = Date.now): SessionStore {
  return {
    async create(kind, subjectId) {
      const rawId = randomToken(32);
      const t = now();
      await db
        .insertInto('sessions')
        .values({
          id_hash: sha256Hex(rawId),
          kind,
          subject_id: subjectId,
          created_at: t,
          expires_at: t + SESSION_TTL_MS,
          last_seen_at: t,
        })
        .execute();
      // Expired rows are swept opportunistically; there is no background job to forget.
      await db.deleteFrom('sessions').where('expires_at', '<', t).execute();
      return rawId;
    },
    async resolve(kind, rawId) {
      if (!rawId || rawId.length > 200) return null;
      const idHash = sha256Hex(rawId);
      const row = await sessionWithSubject(db, kind, idHash);
      const t = now();
      if (!row || row.session_expires_at <= t) return null;
      if (t - row.session_seen_at > TOUCH_INTERVAL_MS) {
        await db
          .updateTable('sessions')
          .set({ last_seen_at: t, expires_at: t + SESSION_TTL_MS })
          .where('id_hash', '=', idHash)
          .execute();
      }
      const { session_expires_at: _expires, session_seen_at: _seen, ...subject } = row;
      return subject as never;
    },
    async destroy(rawId) {
      if (!rawId) return;
      await db.deleteFrom('sessions').where('id_hash', '=', sha256Hex(rawId)).execute();
    },
    async destroyAllFor(kind, subjectId, exceptRawId) {
      let q = db.deleteFrom('sessions').where('kind', '=', kind).where('subject_id', '=', subjectId);
      if (exceptRawId) q = q.where('id_hash', '!=', sha256Hex(exceptRawId));
      await q.execute();
    },
  };
}

export interface CookieOptions {
  secure: boolean;
}

export function setSessionCookie(
  reply: FastifyReply,
  kind: SessionKind,
  rawId: string,
  opts: CookieOptions,
): void {
  reply.setCookie(COOKIE_NAMES[kind], rawId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.secure,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, kind: SessionKind, opts: CookieOptions): void {
  reply.clearCookie(COOKIE_NAMES[kind], { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secure });
}

export function sessionCookie(request: FastifyRequest, kind: SessionKind): string | undefined {
  return request.cookies[COOKIE_NAMES[kind]];
}
