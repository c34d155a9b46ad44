/**
 * One client user's own sessions: the list they read, ending one or all the others.
 * Every query is held to the user and its client, so a session of another user or client is not
 * found. A session without a user id (opened before teams) is the account login's, as everywhere.
 * The cookie's hash never leaves this module: rows are named by their random `public_id`.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ClientUserRow, Database } from '../db/schema';

type Owner = Pick<ClientUserRow, 'id' | 'client_id' | 'is_account_login'>;

export interface UserSessionRow {
  public_id: string;
  id_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number;
}

function ownedBy(user: Owner) {
  return (eb: ExpressionBuilder<Database, 'sessions'>) =>
    eb.and([
      eb('sessions.kind', '=', 'client'),
      eb('sessions.subject_id', '=', user.client_id),
      user.is_account_login === 1
        ? eb.or([eb('sessions.user_id', '=', user.id), eb('sessions.user_id', 'is', null)])
        : eb('sessions.user_id', '=', user.id),
    ]);
}

/** The user's live sessions, the most recently seen first. */
export async function listUserSessions(
  db: Kysely<Database>,
  user: Owner,
  now: number,
): Promise<UserSessionRow[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['public_id', 'id_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where(ownedBy(user))
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  // PostgreSQL answers bigint columns as strings.
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), last_seen_at: Number(r.last_seen_at) }));
}

/** One live session of the user by its public id, or undefined (another's, unknown, expired). */
export async function findUserSession(
  db: Kysely<Database>,
  user: Owner,
  publicId: string,
  now: number,
): Promise<UserSessionRow | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['public_id', 'id_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where(ownedBy(user))
    .where('public_id', '=', publicId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && { ...row, created_at: Number(row.created_at), last_seen_at: Number(row.last_seen_at) };
}

export async function deleteUserSession(db: Kysely<Database>, user: Owner, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where(ownedBy(user)).where('id_hash', '=', idHash).execute();
}

/** Ends every session of the user but `keepIdHash`; answers how many ended. */
export async function deleteOtherUserSessions(
  db: Kysely<Database>,
  user: Owner,
  keepIdHash: string,
): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where(ownedBy(user))
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
