/**
 * Callers' personal data:
 * - `client_privacy`: a client's own redaction categories, national-ID countries and retention
 *   (JSON, contract/privacy.ts; absent parts follow the agency's defaults, kept in app_settings),
 *   where re-redacting its stored calls stands (under a lease, as outcomes' re-classification),
 *   and up to when retention has already cleared its calls (so each run reads only what is new).
 * - `erasure_requests`: one caller's erasure, from the request to its receipt.
 * - `calls.transcript_cleared_at`, `calls.recording_cleared_at`: when retention removed them, so
 *   the call says why it has no transcript or recording (nullable, so adding them rewrites nothing).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_privacy')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('settings_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('reredact_requested_at', 'bigint')
    .addColumn('reredact_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reredact_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reredact_lock_until', 'bigint')
    .addColumn('transcripts_cleared_before', 'bigint')
    .addColumn('recordings_cleared_before', 'bigint')
    .addColumn('calls_cleared_before', 'bigint')
    .execute();

  await db.schema
    .createTable('erasure_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('copies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('providers_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('erasure_requests_client_created')
    .on('erasure_requests')
    .columns(['client_id', 'created_at'])
    .execute();

  await db.schema.alterTable('calls').addColumn('transcript_cleared_at', 'bigint').execute();
  await db.schema.alterTable('calls').addColumn('recording_cleared_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('calls').dropColumn('recording_cleared_at').execute();
  await db.schema.alterTable('calls').dropColumn('transcript_cleared_at').execute();
  await db.schema.dropTable('erasure_requests').execute();
  await db.schema.dropTable('client_privacy').execute();
}
