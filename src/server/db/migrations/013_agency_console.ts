/**
 * The agency's console:
 * - `client_call_days`: per client and local day, the sums the portfolio reads (calls, seconds,
 *   the client's bill, the provider's price, answered and failed calls), sample calls left out.
 *   Keyed (day, client_id) so a range over every client is one contiguous read.
 * - `sync_runs`: every sync, who started it, what it found, how long it took, how it ended.
 * - `webhook_deliveries` keep why a delivery was refused or left unconfirmed, and the body and
 *   signature of those, so an admin can read and replay them once the cause is fixed.
 * - `admins.is_active`: more than one admin, and a way to switch one off without deleting it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_call_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('call_count', 'bigint', (c) => c.notNull())
    .addColumn('total_seconds', 'bigint', (c) => c.notNull())
    .addColumn('total_cost_micros', 'bigint', (c) => c.notNull())
    .addColumn('total_provider_micros', 'bigint', (c) => c.notNull())
    .addColumn('answered_count', 'bigint', (c) => c.notNull())
    .addColumn('failed_count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_call_days_pk', ['day', 'client_id'])
    .execute();
  await db.schema
    .createIndex('client_call_days_client')
    .on('client_call_days')
    .columns(['client_id', 'day'])
    .execute();

  await db.schema
    .createTable('sync_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    /** 'client' | 'admin:{adminId}' | 'sync-all:{adminId}' | 'system' */
    .addColumn('started_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unfetched', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('sync_runs_client')
    .on('sync_runs')
    .columns(['client_id', 'started_at'])
    .execute();
  await db.schema.createIndex('sync_runs_started').on('sync_runs').column('started_at').execute();

  await db.schema.alterTable('webhook_deliveries').addColumn('detail', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('raw_body', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('signature_headers', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('replay_of', 'text').execute();

  await db.schema
    .alterTable('admins')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_at', 'id']).execute();
  // The days of the calls stored before this migration are computed by 015_running_totals.
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_created').execute();
  await db.schema.alterTable('admins').dropColumn('is_active').execute();
  for (const column of ['detail', 'raw_body', 'signature_headers', 'replay_of'])
    await db.schema.alterTable('webhook_deliveries').dropColumn(column).execute();
  await db.schema.dropTable('sync_runs').execute();
  await db.schema.dropTable('client_call_days').execute();
}
