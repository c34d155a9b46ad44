/**
 * The people of a client: the `client_users` table, and the sign-in reads that join it
 * with the clients table (so they live here, behind the clients/ gate). The client's own login
 * (clients.email and password_hash) is the user marked `is_account_login`: `updateClient` keeps
 * the two equal, and a client created without a user (before teams existed, or by a factory) gets
 * it the first time it signs in (`ensureAccountLogin`). Nothing here decides who may do what: that
 * is access/permissions.ts and the teams routes.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { ClientRole, GrantablePermission } from '../../contract/teams';
import { isPostgres } from '../db/dialect';
import type { ClientRow, ClientUserRow, ClientUsersTable, Database } from '../db/schema';

export function displayName(client: Pick<ClientRow, 'first_name' | 'last_name' | 'email'>): string {
  return `${client.first_name} ${client.last_name}`.trim() || client.email;
}

export function findUser(db: Kysely<Database>, clientId: string, id: string) {
  return db
    .selectFrom('client_users')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The person holding this address: a pending invitation holds none (address-identity.ts). */
export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('client_users')
    .selectAll()
    .where('email', '=', email)
    .where('status', '!=', 'invited')
    .executeTakeFirst();
}

/** The client's own login as a user, if it still has one (an Owner may have removed it). */
export function findAccountLogin(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('client_users')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('is_account_login', '=', 1)
    .executeTakeFirst();
}

export function findUserByInviteHash(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('client_users')
    .selectAll()
    .where('invite_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function listUsers(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('client_users')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The ids of the client's active Owners, locked in id order on PostgreSQL so that two changes
 * that could each remove the last Owner wait for each other and the second sees the first's
 * (READ COMMITTED re-checks locked rows). SQLite runs one transaction at a time.
 */
export async function lockActiveOwners(trx: Kysely<Database>, clientId: string): Promise<string[]> {
  const select = trx
    .selectFrom('client_users')
    .select('id')
    .where('client_id', '=', clientId)
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .orderBy('id');
  const rows = await (isPostgres(trx) ? select.forUpdate() : select).execute();
  return rows.map((r) => r.id);
}

export interface NewUser {
  clientId: string;
  email: string;
  name: string;
  role: ClientRole;
  permissions: readonly GrantablePermission[];
  inviteTokenHash: string;
  inviteExpiresAt: number;
  invitedBy: string;
  /** The client's own address re-invited after its login was removed: it becomes that login again. */
  isAccountLogin?: boolean;
}

export async function insertInvitedUser(db: Kysely<Database>, user: NewUser, now: number): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('client_users')
    .values({
      id,
      client_id: user.clientId,
      email: user.email,
      name: user.name,
      password_hash: null,
      role: user.role,
      permissions: JSON.stringify(user.permissions),
      status: 'invited',
      is_account_login: user.isAccountLogin ? 1 : 0,
      invite_token_hash: user.inviteTokenHash,
      invite_expires_at: user.inviteExpiresAt,
      invited_by: user.invitedBy,
      created_at: now,
      updated_at: now,
      last_sign_in_at: null,
    })
    .execute();
  return id;
}

export type UserChanges = Partial<
  Pick<
    Updateable<ClientUsersTable>,
    | 'name'
    | 'role'
    | 'permissions'
    | 'status'
    | 'password_hash'
    | 'must_change_password'
    | 'invite_token_hash'
    | 'invite_expires_at'
    | 'last_sign_in_at'
    | 'updated_at'
  >
>;

export async function updateUser(
  db: Kysely<Database>,
  clientId: string,
  id: string,
  changes: UserChanges,
): Promise<void> {
  await db
    .updateTable('client_users')
    .set(changes)
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .execute();
}

/**
 * A user's new password. The account login's is the client's too: written through the clients
 * table, which keeps the user's equal.
 */
export async function setUserPassword(
  db: Kysely<Database>,
  user: Pick<ClientUserRow, 'id' | 'client_id' | 'is_account_login'>,
  passwordHash: string,
  now: number,
): Promise<void> {
  if (user.is_account_login === 1) {
    await db
      .updateTable('clients')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', user.client_id)
      .execute();
  }
  await updateUser(db, user.client_id, user.id, { password_hash: passwordHash, updated_at: now });
}

export async function deleteUser(db: Kysely<Database>, clientId: string, id: string): Promise<void> {
  await db.deleteFrom('client_users').where('client_id', '=', clientId).where('id', '=', id).execute();
}

/**
 * Ends every session of one user at once (deactivated, removed, a new password), but
 * `exceptIdHash`. The account login's also owns the sessions opened before teams (no user id).
 */
export async function endUserSessions(
  db: Kysely<Database>,
  user: Pick<ClientUserRow, 'id' | 'client_id' | 'is_account_login'>,
  exceptIdHash?: string,
): Promise<void> {
  let q = db
    .deleteFrom('sessions')
    .where('kind', '=', 'client')
    .where((eb) =>
      user.is_account_login === 1
        ? eb.or([
            eb('user_id', '=', user.id),
            eb.and([eb('subject_id', '=', user.client_id), eb('user_id', 'is', null)]),
          ])
        : eb('user_id', '=', user.id),
    );
  if (exceptIdHash) q = q.where('id_hash', '!=', exceptIdHash);
  await q.execute();
}

/**
 * The client's changed e-mail or password hash, copied to its account login (called by
 * `updateClient`, in the same transaction).
 */
export async function syncAccountLogin(
  db: Kysely<Database>,
  clientId: string,
  changes: { email?: string; password_hash?: string | null },
): Promise<void> {
  const set = {
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.password_hash !== undefined ? { password_hash: changes.password_hash } : {}),
  };
  if (Object.keys(set).length === 0) return;
  await db
    .updateTable('client_users')
    .set(set)
    .where('client_id', '=', clientId)
    .where('is_account_login', '=', 1)
    .execute();
}

/**
 * The client's own login as its first Owner, for a client that has no users yet (created before
 * teams, or outside the sign-up flow). A client that has users already is left alone: its account
 * login may have been removed on purpose.
 */
export async function ensureAccountLogin(
  db: Kysely<Database>,
  client: ClientRow,
  now: number,
): Promise<void> {
  if (!client.password_hash || client.onboarding_status !== 'active') return;
  const any = await db
    .selectFrom('client_users')
    .select('id')
    .where('client_id', '=', client.id)
    .limit(1)
    .executeTakeFirst();
  if (any) return;
  await insertAccountLogin(db, client, client.password_hash, now);
}

/**
 * The client's own login as an active Owner with this password: its first sign-in, or the agency
 * giving it credentials again after an Owner removed it (clients.email is still its address).
 */
export async function insertAccountLogin(
  db: Kysely<Database>,
  client: ClientRow,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('client_users')
    .values({
      id: randomUUID(),
      client_id: client.id,
      email: client.email,
      name: displayName(client),
      password_hash: passwordHash,
      role: 'owner',
      permissions: '[]',
      status: 'active',
      is_account_login: 1,
      invite_token_hash: null,
      invite_expires_at: null,
      invited_by: null,
      created_at: now,
      updated_at: now,
      last_sign_in_at: null,
    })
    // Two first sign-ins at once: the second finds the first's row. No conflict target: the
    // address is unique through a partial index (035), which a target would have to repeat.
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The user signing in with this (lower-cased) e-mail, with its onboarded client; or undefined. */
export async function findSignInUser(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: ClientUserRow; client: ClientRow } | undefined> {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  const client = await db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', user.client_id)
    .where('onboarding_status', '=', 'active')
    .executeTakeFirst();
  return client ? { user, client } : undefined;
}

/**
 * A client session's client and user, read with the session in one query (every signed-in
 * request asks). A session without a user id (opened before teams) is the account login's.
 */
export function clientSessionWithUser(db: Kysely<Database>, idHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('clients as subject', 'subject.id', 'sessions.subject_id')
    .innerJoin('client_users as u', (join) =>
      join.on((eb) =>
        eb.or([
          eb('u.id', '=', eb.ref('sessions.user_id')),
          eb.and([
            eb('sessions.user_id', 'is', null),
            eb('u.client_id', '=', eb.ref('sessions.subject_id')),
            eb('u.is_account_login', '=', 1),
          ]),
        ]),
      ),
    )
    .selectAll('subject')
    .select([
      'sessions.expires_at as session_expires_at',
      'sessions.last_seen_at as session_seen_at',
      'u.id as user_id',
      'u.client_id as user_client_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.role as user_role',
      'u.permissions as user_permissions',
      'u.status as user_status',
      'u.is_account_login as user_is_account_login',
      'u.password_hash as user_password_hash',
      'u.must_change_password as user_must_change_password',
    ])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.kind', '=', 'client')
    .executeTakeFirst();
}

/** The agency chose the account login's password: its person must choose their own at next sign-in. */
export async function requireAccountLoginPasswordChange(
  db: Kysely<Database>,
  clientId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('client_users')
    .set({ must_change_password: 1, updated_at: now })
    .where('client_id', '=', clientId)
    .where('is_account_login', '=', 1)
    .execute();
}

/** Counts a sign-in: when, for the users list. */
export async function markSignedIn(db: Kysely<Database>, userId: string, now: number): Promise<void> {
  await db.updateTable('client_users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
  // The client's first sign-in (of anyone of its people) starts its digests (041_notify_from).
  await db
    .updateTable('clients')
    .set({ notify_from: now })
    .where('id', 'in', db.selectFrom('client_users').select('client_id').where('id', '=', userId))
    .where('notify_from', 'is', null)
    .execute();
}
