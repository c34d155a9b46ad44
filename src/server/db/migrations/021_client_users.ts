/**
 * Client teams:
 * - `client_users`: the people of a client. Each signs in with their own e-mail (unique across
 *   every client's users) and password; `role` is owner | manager | viewer, `permissions` a JSON
 *   array of extras granted on top of it (unmask_numbers, export); `status` invited | active |
 *   deactivated. An invitation's token is kept only as its sha256, with its expiry.
 *   `is_account_login` marks the user that is the client's own login (clients.email and
 *   password_hash): the two are kept equal (clients/users-repository.ts).
 * - `sessions.user_id`: which user a client session signs in; null on sessions opened before
 *   this migration, which resolve to the account login (the Owner).
 * - `client_activity`: what the client's people did (sign-ins, invitations, role changes,
 *   removals), for the activity log the client will read.
 * Every client with a login becomes its first Owner, with the same e-mail and password hash.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_account_login', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_token_hash', 'text', (c) => c.unique())
    .addColumn('invite_expires_at', 'bigint')
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('client_users_client')
    .on('client_users')
    .columns(['client_id', 'role'])
    .execute();

  await db.schema.alterTable('sessions').addColumn('user_id', 'text').execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('client_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    // No foreign key: a removed user's lines stay readable (their name is in `detail`).
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('client_activity_client_at')
    .on('client_activity')
    .columns(['client_id', 'at'])
    .execute();

  // The backfill: each client with a login, wizard drafts and the demo tenant aside.
  const now = Date.now();
  const { rows } = await sql<{
    id: string;
    email: string;
    first_name: string;
    last_name: string;
    password_hash: string;
    created_at: number | string;
  }>`select id, email, first_name, last_name, password_hash, created_at from clients
     where password_hash is not null and onboarding_status = 'active'`.execute(db);
  for (const row of rows) {
    const name = `${row.first_name} ${row.last_name}`.trim() || row.email;
    await sql`insert into client_users
        (id, client_id, email, name, password_hash, role, permissions, status, is_account_login, created_at, updated_at)
      values (${randomUUID()}, ${row.id}, ${row.email}, ${name}, ${row.password_hash}, 'owner', '[]', 'active', 1,
        ${Number(row.created_at)}, ${now})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_activity').execute();
  await db.schema.dropIndex('sessions_user').execute();
  await db.schema.alterTable('sessions').dropColumn('user_id').execute();
  await db.schema.dropTable('client_users').execute();
}
