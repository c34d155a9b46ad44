/**
 * Outcomes: each client's ordered outcome list, each call's outcome, and outcome sums
 * beside the status rollups (same buckets, days and sums), so the outcome summary reads as fast
 * as the stats. Calls stored before this get their outcome when the client's outcomes are first
 * read or saved (a background re-classification), not here: a migration should not run for long.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_outcomes')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('outcomes_json', 'text', (c) => c.notNull())
    /** Bumped on every save; calls classified under an older version are re-classified. */
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('reclassify_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reclassify_total', 'bigint', (c) => c.notNull().defaultTo(0))
    /** Lease of the instance re-classifying, so two never run at once. */
    .addColumn('reclassify_lock_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('calls').addColumn('outcome', 'text').execute();
  /** The outcomes version the call was classified under (null: never). */
  await db.schema.alterTable('calls').addColumn('outcome_version', 'integer').execute();
  // "Needs attention": why (a JSON array of reasons, null for none), and who handled it, when.
  await db.schema.alterTable('calls').addColumn('attention_reasons', 'text').execute();
  await db.schema.alterTable('calls').addColumn('handled_at', 'bigint').execute();
  await db.schema.alterTable('calls').addColumn('handled_by', 'text').execute();
  // The open ones are few among many: a partial index keeps the header's count cheap.
  await db.schema
    .createIndex('calls_open_attention')
    .on('calls')
    .columns(['client_id', 'created_at'])
    .where(sql.ref('attention_reasons'), 'is not', null)
    .where(sql.ref('handled_at'), 'is', null)
    .execute();

  for (const [table, period, type] of [
    ['call_outcome_rollups', 'bucket_start', 'bigint'],
    ['call_outcome_rollups_daily', 'day', 'text'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
      .addColumn(period, type, (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('pathway', 'text', (c) => c.notNull())
      .addColumn('call_count', 'bigint', (c) => c.notNull())
      .addColumn('total_seconds', 'bigint', (c) => c.notNull())
      .addColumn('total_cost_micros', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['client_id', period, 'outcome', 'pathway'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('call_outcome_rollups_daily').execute();
  await db.schema.dropTable('call_outcome_rollups').execute();
  await db.schema.dropIndex('calls_open_attention').execute();
  for (const column of ['handled_by', 'handled_at', 'attention_reasons'])
    await db.schema.alterTable('calls').dropColumn(column).execute();
  await db.schema.alterTable('calls').dropColumn('outcome_version').execute();
  await db.schema.alterTable('calls').dropColumn('outcome').execute();
  await db.schema.dropTable('client_outcomes').execute();
}
