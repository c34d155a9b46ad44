/**
 * One identity per e-mail address, and invitations that do not claim one.
 * `client_users.email` was unique over every row, pending invitations included, so an invitation
 * held its address: the client the agency created later with it could not sign in, and an Owner
 * could learn whether an address was another client's from the refusal. Now:
 * - `client_users_identity_email`: unique over the users who hold an identity (any status but
 *   'invited'); several clients may have invited one address, and accepting is checked
 *   (clients/address-identity.ts) and decided by this index.
 * - `client_users_email_client`: one row per address within a client; address first, so every
 *   look-up by address (sign-in, the identity checks) is an index seek, whatever its status.
 * SQLite cannot drop a column's UNIQUE constraint, so there the table is rebuilt from its own
 * stored definition minus that one constraint (nothing references client_users, so dropping the
 * old table cascades nowhere); PostgreSQL drops the constraint by name.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const COLUMN_UNIQUE = /"email" text not null unique/i;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table client_users drop constraint if exists client_users_email_key`.execute(db);
  } else {
    await rebuildSqliteWithoutEmailUnique(db);
  }
  await sql`create unique index client_users_identity_email on client_users (email) where status <> 'invited'`.execute(
    db,
  );
  await db.schema
    .createIndex('client_users_email_client')
    .unique()
    .on('client_users')
    .columns(['email', 'client_id'])
    .execute();
}

async function rebuildSqliteWithoutEmailUnique(db: Kysely<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'client_users'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  if (!COLUMN_UNIQUE.test(definition)) throw new Error('client_users: the e-mail constraint was not found');
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master
    where type = 'index' and tbl_name = 'client_users' and sql is not null`.execute(db);
  const rebuilt = definition
    .replace(COLUMN_UNIQUE, '"email" text not null')
    .replace(/^create table "?client_users"?/i, 'create table "client_users_035"');
  await sql.raw(rebuilt).execute(db);
  await sql`insert into client_users_035 select * from client_users`.execute(db);
  await sql`drop table client_users`.execute(db);
  await sql`alter table client_users_035 rename to client_users`.execute(db);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('client_users_email_client').execute();
  await db.schema.dropIndex('client_users_identity_email').execute();
  // Only possible while no address is held by two rows (several invitations of one address).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table client_users add constraint client_users_email_key unique (email)`.execute(db);
  } else {
    await db.schema
      .createIndex('client_users_email_unique')
      .unique()
      .on('client_users')
      .column('email')
      .execute();
  }
}
