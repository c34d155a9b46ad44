/**
 * Database-backed sessions, so any app instance can serve any request and a session can be
 * revoked (logout, credentials reset, client deleted). The cookie holds a random id; the
 * database holds only its sha256.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionUserRow } from '../access/permissions';
import { sessionWithSubject } from '../clients/clients-joined';
import { clientSessionWithUser } from '../clients/users-repository';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { AdminRow, ClientRow, Database, SessionKind } from '../db/schema';

/** What a session of each kind signs in. */
export interface SubjectOf {
  client: ClientRow;
  admin: AdminRow;
}

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Sliding expiry and last seen are written at most this often, not on every request: often
 * enough for the sessions list's "last seen", rare enough to cost one write per
 * browser every few minutes.
 */
export const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
/** A user keeps at most this many sessions; a new one ends the least recently seen. */
export const MAX_SESSIONS_PER_USER = 20;

/** Where a session was opened from, for the sessions list. */
export interface SessionDevice {
  userAgent: string | null;
  ip: string | null;
}

/** The request's browser and address; `request.ip` follows Fastify's trustProxy setting. */
export function deviceOf(request: FastifyRequest): SessionDevice {
  const agent = request.headers['user-agent'];
  return { userAgent: agent ? agent.slice(0, 500) : null, ip: request.ip ? request.ip.slice(0, 100) : null };
}

export const COOKIE_NAMES: Record<SessionKind, string> = { client: 'client_sid', admin: 'admin_sid' };

export interface SessionStore {
  /**
   * `userId`: the client user a client session signs in; `device`: where it is opened from. The
   * user's (or admin's) sessions beyond MAX_SESSIONS_PER_USER end in the same transaction.
   */
  create(kind: SessionKind, subjectId: string, userId?: string, device?: SessionDevice): Promise<string>;
  /** A client session's client and user, in one query; null when none is live. */
  resolveClient(rawId: string | undefined): Promise<{ client: ClientRow; user: SessionUserRow } | null>;
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
    async create(kind, subjectId, userId, device) {
      const rawId = randomToken(32);
      const t = now();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sessions')
          .values({
            id_hash: sha256Hex(rawId),
            public_id: randomToken(12),
            kind,
            subject_id: subjectId,
            user_id: userId ?? null,
            created_at: t,
            expires_at: t + SESSION_TTL_MS,
            last_seen_at: t,
            user_agent: device?.userAgent ?? null,
            ip: device?.ip ?? null,
          })
          .execute();
        await endSessionsBeyondCap(trx, kind, subjectId, userId ?? null, sha256Hex(rawId));
      });
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
      // The subject's type follows `kind`, which TypeScript cannot narrow in a generic
      return subject as never;
    },
    async resolveClient(rawId) {
      if (!rawId || rawId.length > 200) return null;
      const idHash = sha256Hex(rawId);
      const row = await clientSessionWithUser(db, idHash);
      const t = now();
      if (!row || row.session_expires_at <= t) return null;
      if (t - row.session_seen_at > TOUCH_INTERVAL_MS) {
        await db
          .updateTable('sessions')
          .set({ last_seen_at: t, expires_at: t + SESSION_TTL_MS })
          .where('id_hash', '=', idHash)
          .execute();
      }
      const {
        session_expires_at: _expires,
        session_seen_at: _seen,
        user_id,
        user_client_id,
        user_name,
        user_email,
        user_role,
        user_permissions,
        user_status,
        user_is_account_login,
        user_password_hash,
        user_must_change_password,
        ...client
      } = row;
      return {
        client: client satisfies ClientRow,
        user: {
          id: user_id,
          client_id: user_client_id,
          name: user_name,
          email: user_email,
          role: user_role,
          permissions: user_permissions,
          status: user_status,
          is_account_login: user_is_account_login,
          password_hash: user_password_hash,
          must_change_password: user_must_change_password,
        },
      };
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

/**
 * Ends the sessions of one person beyond the newest MAX_SESSIONS_PER_USER by last seen: a client
 * user's (by user id), or an admin's. A client session without a user id (opened before teams) is
 * not counted: it expires on its own.
 */
async function endSessionsBeyondCap(
  trx: Kysely<Database>,
  kind: SessionKind,
  subjectId: string,
  userId: string | null,
  newIdHash: string,
): Promise<void> {
  if (kind === 'client' && !userId) return;
  const mine = trx
    .selectFrom('sessions')
    .where('kind', '=', kind)
    .$if(kind === 'client', (q) => q.where('user_id', '=', userId))
    .$if(kind === 'admin', (q) => q.where('subject_id', '=', subjectId));
  // The new session always stays (times can tie): the others keep the newest cap - 1.
  const beyond = await mine
    .select('id_hash')
    .where('id_hash', '!=', newIdHash)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .offset(MAX_SESSIONS_PER_USER - 1)
    .limit(1000)
    .execute();
  if (beyond.length === 0) return;
  await trx
    .deleteFrom('sessions')
    .where(
      'id_hash',
      'in',
      beyond.map((r) => r.id_hash),
    )
    .execute();
}

/** Ends every session of an admin but `keepIdHash` (in the caller's transaction); answers how many. */
export async function endOtherAdminSessions(
  trx: Kysely<Database>,
  adminId: string,
  keepIdHash: string,
): Promise<number> {
  const result = await trx
    .deleteFrom('sessions')
    .where('kind', '=', 'admin')
    .where('subject_id', '=', adminId)
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
