/**
 * Conversation quality:
 * - `calls.quality_json`: the call's measured quality (contract/quality.ts CallQuality), and four
 *   of its figures as columns, which the log filters on and the worst-call lists sort by;
 * - `quality_rollups_daily`: per client, local day and metric, how many calls had each value (a
 *   histogram over values on a grid, quality/grid.ts), so a summary's medians read a row per day
 *   and metric, not calls;
 * - `client_outcomes.quality_thresholds_json`: the client's thresholds, classified with its
 *   outcomes (saving them re-classifies under a new version, as saving outcomes does);
 * - `client_quality`: where measuring a client's earlier calls stands (the backfill), one row per
 *   client that had calls when this ran; a client without a row has nothing to backfill.
 * Nullable columns, so adding them rewrites no row.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('calls').addColumn('quality_json', 'text').execute();
  await db.schema.alterTable('calls').addColumn('quality_precision', 'text').execute();
  await db.schema.alterTable('calls').addColumn('quality_latency_p90_ms', 'integer').execute();
  await db.schema.alterTable('calls').addColumn('quality_interruptions_caller', 'integer').execute();
  await db.schema.alterTable('calls').addColumn('quality_dead_air_ms', 'integer').execute();
  // The worst calls of a period: read from the top of one of these. Ties (a count has few values)
  // newest first, so a recent period's calls come before the older ones they would wade through.
  for (const [name, column] of [
    ['calls_client_quality_latency', 'quality_latency_p90_ms'],
    ['calls_client_quality_interruptions', 'quality_interruptions_caller'],
    ['calls_client_quality_dead_air', 'quality_dead_air_ms'],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('calls')
      .columns(['client_id', column, 'created_at'])
      .where(sql.ref(column), 'is not', null)
      .execute();
  }

  await db.schema
    .createTable('quality_rollups_daily')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('histogram_json', 'text', (c) => c.notNull())
    .addColumn('call_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_rollups_daily_pk', ['client_id', 'day', 'metric'])
    .execute();

  await db.schema.alterTable('client_outcomes').addColumn('quality_thresholds_json', 'text').execute();

  await db.schema
    .createTable('client_quality')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('backfill_after_id', 'text')
    .addColumn('backfill_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backfill_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backfill_finished_at', 'bigint')
    .addColumn('backfill_lock_until', 'bigint')
    .execute();
  await sql`
    insert into client_quality (client_id, backfill_total)
    select client_id, count(*) from calls group by client_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_quality').execute();
  await db.schema.alterTable('client_outcomes').dropColumn('quality_thresholds_json').execute();
  await db.schema.dropTable('quality_rollups_daily').execute();
  for (const name of [
    'calls_client_quality_latency',
    'calls_client_quality_interruptions',
    'calls_client_quality_dead_air',
  ])
    await db.schema.dropIndex(name).execute();
  for (const column of [
    'quality_dead_air_ms',
    'quality_interruptions_caller',
    'quality_latency_p90_ms',
    'quality_precision',
    'quality_json',
  ])
    await db.schema.alterTable('calls').dropColumn(column).execute();
}
