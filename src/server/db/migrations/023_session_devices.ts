/**
 * Sessions list and activity log:
 * - `sessions.public_id`: a random id the sessions list and DELETE /api/client/sessions/{id} use,
 *   so nothing derived from the cookie (id_hash) ever leaves the server. Older rows get one here.
 * - `sessions.user_agent`, `sessions.ip`: the device and address a session was opened from; null
 *   on older rows (shown as an unknown device).
 * - `sessions_user_seen`: the 20-per-user cap finds a user's oldest session by last seen.
 * - `client_activity_client_action_at`, `client_activity_client_user_at`: the activity log's two
 *   filters, each newest first within a client; `client_activity_at`: the retention's delete.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  const { rows } = await sql<{ id_hash: string }>`select id_hash from sessions`.execute(db);
  for (const row of rows) {
    await sql`update sessions set public_id = ${randomBytes(12).toString('base64url')}
      where id_hash = ${row.id_hash}`.execute(db);
  }
  await db.schema.createIndex('sessions_public_id').on('sessions').column('public_id').unique().execute();
  await db.schema
    .createIndex('sessions_user_seen')
    .on('sessions')
    .columns(['user_id', 'last_seen_at'])
    .execute();

  await db.schema
    .createIndex('client_activity_client_action_at')
    .on('client_activity')
    .columns(['client_id', 'action', 'at'])
    .execute();
  await db.schema
    .createIndex('client_activity_client_user_at')
    .on('client_activity')
    .columns(['client_id', 'user_id', 'at'])
    .execute();
  await db.schema.createIndex('client_activity_at').on('client_activity').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('client_activity_at').execute();
  await db.schema.dropIndex('client_activity_client_user_at').execute();
  await db.schema.dropIndex('client_activity_client_action_at').execute();
  await db.schema.dropIndex('sessions_user_seen').execute();
  await db.schema.dropIndex('sessions_public_id').execute();
  await db.schema.alterTable('sessions').dropColumn('ip').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('public_id').execute();
}
