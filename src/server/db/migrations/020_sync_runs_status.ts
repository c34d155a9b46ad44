/**
 * Sync runs that survive faults and crashes (point 9):
 * - `status`: running, succeeded, failed, or interrupted (the process stopped mid-sync; marked so
 *   at the next start, or by the next sync of the client once the run's heartbeat has gone stale).
 * - `heartbeat_at`: renewed every few seconds by the process running the sync, with its progress.
 * - `retried`: provider errors answered and retried, per HTTP status, as JSON ({"429": 12}).
 * Earlier rows get the status their columns imply.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sync_runs')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('running'))
    .execute();
  await db.schema.alterTable('sync_runs').addColumn('heartbeat_at', 'bigint').execute();
  await db.schema.alterTable('sync_runs').addColumn('retried', 'text').execute();
  await sql`update sync_runs set status = case
      when finished_at is null then 'running'
      when error is not null then 'failed'
      else 'succeeded' end`.execute(db);
  await db.schema.createIndex('sync_runs_running').on('sync_runs').columns(['status', 'client_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sync_runs_running').execute();
  await db.schema.alterTable('sync_runs').dropColumn('retried').execute();
  await db.schema.alterTable('sync_runs').dropColumn('heartbeat_at').execute();
  await db.schema.alterTable('sync_runs').dropColumn('status').execute();
}
