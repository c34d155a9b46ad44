/**
 * What the provider says each call achieved (issue 13): summary, who answered, who ended it, the
 * error, the post-call tag, analysis and variables, and the provider's price (the agency's cost,
 * apart from the client's bill). Existing calls are filled in from their stored payloads, in
 * batches, so no re-sync is needed.
 */
import type { Kysely } from 'kysely';
import { backfillCallInsights } from '../../calls/write/insights-backfill';

const TEXT_COLUMNS = [
  'summary',
  'answered_by',
  'call_ended_by',
  'error_message',
  'disposition_tag',
  'analysis_json',
  'variables_json',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of TEXT_COLUMNS) {
    await db.schema.alterTable('calls').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('calls').addColumn('provider_price_micros', 'bigint').execute();
  await backfillCallInsights(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...TEXT_COLUMNS, 'provider_price_micros']) {
    await db.schema.alterTable('calls').dropColumn(column).execute();
  }
}
