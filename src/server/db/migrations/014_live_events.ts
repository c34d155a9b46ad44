/**
 * Live events: what changed for a client, written in the transaction of the change, so
 * every instance's streams can send it and a stream that reconnects can resume from the last id
 * it saw. Kept for a few minutes (housekeeping). On PostgreSQL a statement trigger NOTIFYs
 * `live_events` on commit, waking every instance's hub at once.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('live_events')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (c) =>
      isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_events_client').on('live_events').columns(['client_id', 'id']).execute();
  if (!isPostgres) return;
  await sql`create function live_events_notify() returns trigger language plpgsql as $$
      begin perform pg_notify('live_events', ''); return null; end $$`.execute(db);
  await sql`create trigger live_events_notify after insert on live_events
      for each statement execute function live_events_notify()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger live_events_notify on live_events`.execute(db);
    await sql`drop function live_events_notify()`.execute(db);
  }
  await db.schema.dropTable('live_events').execute();
}
