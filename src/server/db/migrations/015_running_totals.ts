/**
 * The agency's portfolio at any number of calls and days:
 * - `client_call_days` gains each client's running totals through the day, and its rows become
 *   dense (a row for every day between a client's first and last), so a client's sums over a
 *   range are two rows subtracted and every client at one day is one contiguous read;
 * - `agency_call_days`: the day sums of every client, in a few shards per day, for the chart.
 * Every client's days are recomputed from its calls (this also covers databases that reached
 * 013 with calls already stored), and rows of clients deleted since are dropped.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

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

  // The frozen copy below reads and writes these tables as they were at this migration.
  const typed = db as unknown as Kysely<Tables>;
  await typed.deleteFrom('client_call_days').execute();
  const clients = await typed.selectFrom('clients').select(['id', 'timezone']).execute();
  for (const client of clients) await rebuildClientDays(typed, client.id, client.timezone);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agency_call_days').execute();
  for (const column of RUNNING) await db.schema.alterTable('client_call_days').dropColumn(column).execute();
}

/*
 * Frozen copy, 2026-11-27, of what this migration ran from the app: `rebuildClientDays` and what
 * it calls in agency/client-days.ts, with `localDate` and `shiftDate` of time/time-zones.ts. A
 * migration must do forever what it did when it first ran, so it imports nothing from the app:
 * a later change to the running totals is a new migration, never an edit here. Trimmed to what
 * the rebuild reaches; otherwise as it was.
 */

/** The tables as this migration leaves them (not today's schema: see above). */
interface Tables {
  clients: { id: string; timezone: string };
  calls: {
    client_id: string;
    created_at: number;
    status: string;
    duration_seconds: number;
    cost_micros: number;
    provider_price_micros: number | null;
    is_proxy: number;
    verified: number;
    source: string;
  };
  client_call_days: {
    day: string;
    client_id: string;
    call_count: number;
    total_seconds: number;
    total_cost_micros: number;
    total_provider_micros: number;
    answered_count: number;
    failed_count: number;
    cum_calls: number;
    cum_seconds: number;
    cum_cost_micros: number;
    cum_provider_micros: number;
    cum_answered: number;
    cum_failed: number;
  };
  agency_call_days: {
    day: string;
    shard: number;
    call_count: number;
    total_cost_micros: number;
    total_provider_micros: number;
  };
}

interface DaySums {
  calls: number;
  seconds: number;
  costMicros: number;
  providerMicros: number;
  answered: number;
  failed: number;
}

interface DayContributing {
  client_id: string;
  created_at: number;
  status: string;
  duration_seconds: number;
  cost_micros: number;
  source: string;
  provider_price_micros?: number | null;
}

const KEYS = ['calls', 'seconds', 'costMicros', 'providerMicros', 'answered', 'failed'] as const;

const DAILY = {
  calls: 'call_count',
  seconds: 'total_seconds',
  costMicros: 'total_cost_micros',
  providerMicros: 'total_provider_micros',
  answered: 'answered_count',
  failed: 'failed_count',
} as const satisfies Record<keyof DaySums, string>;

const AGENCY_SHARDS = 8;

const SEP = '\u0000';
const ANSWERED = new Set(['completed', 'transferred']);

const emptySums = (): DaySums => ({
  calls: 0,
  seconds: 0,
  costMicros: 0,
  providerMicros: 0,
  answered: 0,
  failed: 0,
});

const isZero = (d: DaySums) => KEYS.every((k) => d[k] === 0);

function plus(a: DaySums, b: DaySums, sign = 1): DaySums {
  const out = emptySums();
  for (const k of KEYS) out[k] = a[k] + sign * b[k];
  return out;
}

function add(d: DaySums, call: DayContributing, sign: number, count = 1) {
  d.calls += sign * count;
  d.seconds += sign * call.duration_seconds;
  d.costMicros += sign * call.cost_micros;
  d.providerMicros += sign * Number(call.provider_price_micros ?? 0);
  if (ANSWERED.has(call.status)) d.answered += sign * count;
  if (call.status === 'failed') d.failed += sign * count;
}

function agencyShard(clientId: string): number {
  let h = 0;
  for (let i = 0; i < clientId.length; i++) h = (h * 31 + clientId.charCodeAt(i)) | 0;
  return Math.abs(h) % AGENCY_SHARDS;
}

function sumsOf(row: Record<string, unknown>, columns: Record<keyof DaySums, string>): DaySums {
  const out = emptySums();
  for (const k of KEYS) out[k] = Number(row[columns[k]] ?? 0);
  return out;
}

interface DayChange {
  clientId: string;
  day: string;
  sums: DaySums;
}

async function lockClientDays(db: Kysely<Tables>, clientIds: string[]): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const id of clientIds)
    await sql`select pg_advisory_xact_lock(hashtextextended(${`client_call_days:${id}`}, 0))`.execute(db);
}

function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = shiftDate(d, 1)) out.push(d);
  return out;
}

interface DayRow {
  day: string;
  clientId: string;
  daily: DaySums;
  running: DaySums;
}

async function insertDayRows(db: Kysely<Tables>, rows: DayRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('client_call_days')
      .values(
        rows.slice(i, i + 200).map(({ day, clientId, daily, running }) => ({
          day,
          client_id: clientId,
          call_count: daily.calls,
          total_seconds: daily.seconds,
          total_cost_micros: daily.costMicros,
          total_provider_micros: daily.providerMicros,
          answered_count: daily.answered,
          failed_count: daily.failed,
          cum_calls: running.calls,
          cum_seconds: running.seconds,
          cum_cost_micros: running.costMicros,
          cum_provider_micros: running.providerMicros,
          cum_answered: running.answered,
          cum_failed: running.failed,
        })),
      )
      .execute();
}

async function addToAgencyDays(db: Kysely<Tables>, rows: DayChange[]): Promise<void> {
  const byKey = new Map<string, { day: string; shard: number; sums: DaySums }>();
  for (const { clientId, day, sums } of rows) {
    const shard = agencyShard(clientId);
    const key = `${day}${SEP}${shard}`;
    const had = byKey.get(key);
    byKey.set(key, { day, shard, sums: had ? plus(had.sums, sums) : sums });
  }
  const changes = [...byKey.entries()]
    .filter(([, v]) => v.sums.calls !== 0 || v.sums.costMicros !== 0 || v.sums.providerMicros !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, v]) => v);
  const grow = (column: string) =>
    sql<number>`${sql.ref(`agency_call_days.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  for (let i = 0; i < changes.length; i += 200)
    await db
      .insertInto('agency_call_days')
      .values(
        changes.slice(i, i + 200).map(({ day, shard, sums }) => ({
          day,
          shard,
          call_count: sums.calls,
          total_cost_micros: sums.costMicros,
          total_provider_micros: sums.providerMicros,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['day', 'shard']).doUpdateSet({
          call_count: grow('call_count'),
          total_cost_micros: grow('total_cost_micros'),
          total_provider_micros: grow('total_provider_micros'),
        }),
      )
      .execute();
}

async function removeClientDays(db: Kysely<Tables>, clientId: string): Promise<void> {
  await lockClientDays(db, [clientId]);
  const rows = await db
    .selectFrom('client_call_days')
    .select(['day', ...Object.values(DAILY)])
    .where('client_id', '=', clientId)
    .where('call_count', '!=', 0)
    .execute();
  await addToAgencyDays(
    db,
    rows.map((r) => ({ clientId, day: r.day, sums: plus(emptySums(), sumsOf(r, DAILY), -1) })),
  );
  await db.deleteFrom('client_call_days').where('client_id', '=', clientId).execute();
}

const BUCKET_MS = 15 * 60 * 1000;

async function rebuildClientDays(db: Kysely<Tables>, clientId: string, timeZone: string): Promise<void> {
  // A literal, not a parameter: PostgreSQL matches the SELECT and GROUP BY expressions by their text.
  const bucket = sql<number>`created_at - (created_at % ${sql.lit(BUCKET_MS)})`;
  const buckets = await db
    .selectFrom('calls')
    .select((eb) => [
      bucket.as('bucket'),
      'status',
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('duration_seconds').as('seconds'),
      eb.fn.sum<number>('cost_micros').as('cost'),
      eb.fn.sum<number>(eb.fn.coalesce('provider_price_micros', sql.lit(0))).as('provider'),
    ])
    .where('client_id', '=', clientId)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1)
    .where('source', '!=', 'sample')
    .groupBy([bucket, 'status'])
    .execute();
  const days = new Map<string, DaySums>();
  for (const b of buckets) {
    const day = localDate(Number(b.bucket), timeZone);
    let d = days.get(day);
    if (!d) {
      d = emptySums();
      days.set(day, d);
    }
    add(
      d,
      {
        client_id: clientId,
        created_at: Number(b.bucket),
        status: b.status,
        duration_seconds: Number(b.seconds),
        cost_micros: Number(b.cost),
        provider_price_micros: Number(b.provider),
        source: 'sync',
      },
      1,
      Number(b.calls),
    );
  }
  await removeClientDays(db, clientId);
  const sorted = [...days.keys()].sort();
  if (sorted.length === 0) return;
  const rows: DayRow[] = [];
  let running = emptySums();
  for (const day of daysBetween(sorted[0], sorted[sorted.length - 1])) {
    const daily = days.get(day) ?? emptySums();
    running = plus(running, daily);
    rows.push({ day, clientId, daily, running });
  }
  await insertDayRows(db, rows);
  await addToAgencyDays(
    db,
    rows.filter((r) => !isZero(r.daily)).map((r) => ({ clientId, day: r.day, sums: r.daily })),
  );
}

/* From time/time-zones.ts: local calendar days in an IANA time zone, with nothing but Intl. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function localParts(ms: number, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
}

function localDate(ms: number, timeZone: string): string {
  const parts = localParts(ms, timeZone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
