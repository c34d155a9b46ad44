/**
 * The agency's portfolio at any number of calls and days (issue 16):
 * - `client_call_days` gains each client's running totals through the day, and its rows become
 *   dense (a row for every day between a client's first and last), so a client's sums over a
 *   range are two rows subtracted and every client at one day is one contiguous read;
 * - `agency_call_days`: the day sums of every client, in a few shards per day, for the chart.
 * Every client's days are recomputed from its calls (this also covers databases that reached
 * 013 with calls already stored), and rows of clients deleted since are dropped.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { rebuildClientDays } from '../../agency/client-days';

const RUNNING = [
  'cum_calls',
  'cum_seconds',
  'cum_cost_micros',
  'cum_provider_micros',
  'cum_answered',
  'cum_failed',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of RUNNING)
    await db.schema
      .alterTable('client_call_days')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema
    .createTable('agency_call_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('call_count', 'bigint', (c) => c.notNull())
    .addColumn('total_cost_micros', 'bigint', (c) => c.notNull())
    .addColumn('total_provider_micros', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agency_call_days_pk', ['day', 'shard'])
    .execute();

  const typed = db as unknown as Kysely<Database>;
  await typed.deleteFrom('client_call_days').execute();
  const clients = await typed.selectFrom('clients').select(['id', 'timezone']).execute();
  for (const client of clients) await rebuildClientDays(typed, client.id, client.timezone);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agency_call_days').execute();
  for (const column of RUNNING) await db.schema.alterTable('client_call_days').dropColumn(column).execute();
}
