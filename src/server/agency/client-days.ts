/**
 * `client_call_days` (issue 16): one row per client and local day with what the agency's
 * portfolio reads: calls, seconds, the client's bill, the provider's price, answered and failed
 * calls; and `agency_call_days`, the same day sums over every client (the portfolio's chart).
 * Kept exact by RollupDeltas in the transaction of every write to `calls`, like the other
 * rollups; sample calls (a client trying the dashboard) are no business, so they are left out.
 *
 * Each client's days also carry running totals (the client's sums through that day), and its rows
 * are dense: every day from its first row to its last has one, and housekeeping carries every
 * client forward to the day after tomorrow. So a client's sums over any range are two rows' running
 * totals subtracted, and the portfolio's read of every client at one day is one contiguous range of
 * the (day, client_id) key, whatever the number of calls or days.
 */
import type { ClientChangeListener } from '../clients/client-changes';
import { type Kysely, sql } from 'kysely';
import type { CallRow, Database } from '../db/schema';
import { localDate, shiftDate } from '../time/time-zones';
import { isPostgres } from '../db/dialect';

export interface DaySums {
  calls: number;
  seconds: number;
  costMicros: number;
  providerMicros: number;
  answered: number;
  failed: number;
}

export type DayContributing = Pick<
  CallRow,
  'client_id' | 'created_at' | 'status' | 'duration_seconds' | 'cost_micros' | 'source'
> & { provider_price_micros?: number | null };

const KEYS = ['calls', 'seconds', 'costMicros', 'providerMicros', 'answered', 'failed'] as const;

/** Each sum's column for the day itself and for the running total through the day. */
const DAILY = {
  calls: 'call_count',
  seconds: 'total_seconds',
  costMicros: 'total_cost_micros',
  providerMicros: 'total_provider_micros',
  answered: 'answered_count',
  failed: 'failed_count',
} as const satisfies Record<keyof DaySums, string>;
export const RUNNING = {
  calls: 'cum_calls',
  seconds: 'cum_seconds',
  costMicros: 'cum_cost_micros',
  providerMicros: 'cum_provider_micros',
  answered: 'cum_answered',
  failed: 'cum_failed',
} as const satisfies Record<keyof DaySums, string>;

/** The agency's day sums are split over a few rows per day, so concurrent writers of different
 * clients seldom wait on one hot row. */
export const AGENCY_SHARDS = 8;

const SEP = '\u0000';
const ANSWERED = new Set(['completed', 'transferred']);

export const emptySums = (): DaySums => ({
  calls: 0,
  seconds: 0,
  costMicros: 0,
  providerMicros: 0,
  answered: 0,
  failed: 0,
});

const isZero = (d: DaySums) => KEYS.every((k) => d[k] === 0);

/** a + sign × b, field by field. */
export function plus(a: DaySums, b: DaySums, sign = 1): DaySums {
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

/** A client's shard of the agency's day rows: a stable hash of its id. */
export function agencyShard(clientId: string): number {
  let h = 0;
  for (let i = 0; i < clientId.length; i++) h = (h * 31 + clientId.charCodeAt(i)) | 0;
  return Math.abs(h) % AGENCY_SHARDS;
}

/** Reads a row's running totals (or its day sums) into DaySums. */
export function sumsOf(
  row: Record<string, unknown>,
  columns: Record<keyof DaySums, string> = RUNNING,
): DaySums {
  const out = emptySums();
  for (const k of KEYS) out[k] = Number(row[columns[k]] ?? 0);
  return out;
}

/** A bound number as a 64-bit integer (PostgreSQL would otherwise guess a 32-bit one). */
const big = (n: number) => sql<number>`cast(${n} as bigint)`;

/** Collects +/- contributions per (client, local day); `apply` writes them. */
export class ClientDayDeltas {
  private readonly days = new Map<string, DaySums>();

  add(call: DayContributing, day: string, sign: 1 | -1): void {
    if (call.source === 'sample') return;
    const key = `${call.client_id}${SEP}${day}`;
    let d = this.days.get(key);
    if (!d) {
      d = emptySums();
      this.days.set(key, d);
    }
    add(d, call, sign);
  }

  async apply(db: Kysely<Database>): Promise<void> {
    // Sorted by client then day, so concurrent transactions take their locks in one order.
    const rows = [...this.days.entries()]
      .filter(([, d]) => !isZero(d))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, sums]) => {
        const [clientId, day] = key.split(SEP);
        return { clientId, day, sums };
      });
    this.days.clear();
    if (rows.length === 0) return;
    await lockClientDays(db, [...new Set(rows.map((r) => r.clientId))]);
    // Most changes fall on a day the client already has (housekeeping carries every client to the
    // day after tomorrow): a batch of webhooks adds all of those in one statement. A client with
    // several days in the batch, or a day it has no row for yet, goes one day at a time.
    const daysOfClient = new Map<string, number>();
    for (const r of rows) daysOfClient.set(r.clientId, (daysOfClient.get(r.clientId) ?? 0) + 1);
    const single = rows.filter((r) => daysOfClient.get(r.clientId) === 1);
    const present = await presentDays(db, single);
    const together = new Set(single.filter((r) => present.has(dayKey(r))));
    const alone = rows.filter((r) => !together.has(r));
    await addToPresentDays(db, [...together]);
    for (const { clientId, day, sums } of alone) await addToClientDay(db, clientId, day, sums);
    await addToAgencyDays(db, rows);
  }
}

interface DayChange {
  clientId: string;
  day: string;
  sums: DaySums;
}

const dayKey = (r: { clientId: string; day: string }) => `${r.clientId}${SEP}${r.day}`;

/** Which of these (client, day) rows exist. */
async function presentDays(db: Kysely<Database>, changes: DayChange[]): Promise<Set<string>> {
  if (changes.length === 0) return new Set();
  const found = await db
    .selectFrom('client_call_days')
    .select(['client_id', 'day'])
    .where('client_id', 'in', [...new Set(changes.map((r) => r.clientId))])
    .where('day', 'in', [...new Set(changes.map((r) => r.day))])
    .execute();
  return new Set(found.map((r) => dayKey({ clientId: r.client_id, day: r.day })));
}

/**
 * Adds each change to its existing day and to the running totals of that day and every later
 * one, for many clients in one statement. Each client appears once: a row that two changes
 * matched would take only one of them.
 */
async function addToPresentDays(db: Kysely<Database>, changes: DayChange[]): Promise<void> {
  // VALUES columns are column1… on both databases: client, day, then the sums in KEYS order.
  const value = (k: (typeof KEYS)[number]) => sql.ref(`v.column${3 + KEYS.indexOf(k)}`);
  const sets = KEYS.flatMap((k) => [
    sql`${sql.ref(RUNNING[k])} = ${sql.ref(RUNNING[k])} + ${value(k)}`,
    sql`${sql.ref(DAILY[k])} = ${sql.ref(DAILY[k])} + case when client_call_days.day = v.column2 then ${value(k)} else 0 end`,
  ]);
  for (let i = 0; i < changes.length; i += 200) {
    const tuples = changes
      .slice(i, i + 200)
      .map(
        ({ clientId, day, sums }) => sql`(${clientId}, ${day}, ${sql.join(KEYS.map((k) => big(sums[k])))})`,
      );
    await sql`update client_call_days set ${sql.join(sets)}
      from (values ${sql.join(tuples)}) as v
      where client_call_days.client_id = v.column1 and client_call_days.day >= v.column2`.execute(db);
  }
}

/**
 * On PostgreSQL, one writer at a time per client for its days: a day row inserted with the
 * running total before it must not miss a concurrent change to an earlier day. (SQLite's
 * transactions already run one at a time.)
 */
async function lockClientDays(db: Kysely<Database>, clientIds: string[]): Promise<void> {
  if (!isPostgres(db)) return;
  for (const id of clientIds)
    await sql`select pg_advisory_xact_lock(hashtextextended(${`client_call_days:${id}`}, 0))`.execute(db);
}

/** Days from `from` to `to`, both included (none when from > to). */
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

/** Adds one day's change to a client: its day, and the running totals of it and every later day. */
async function addToClientDay(
  db: Kysely<Database>,
  clientId: string,
  day: string,
  d: DaySums,
): Promise<void> {
  const prev = await db
    .selectFrom('client_call_days')
    .select(['day', ...Object.values(RUNNING)])
    .where('client_id', '=', clientId)
    .where('day', '<=', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (prev?.day === day) return addToPresentDays(db, [{ clientId, day, sums: d }]);
  // A new day: the later days' totals grow, then the day and the gaps around it are filled.
  const set: Record<string, unknown> = {};
  for (const k of KEYS) set[RUNNING[k]] = sql`${sql.ref(RUNNING[k])} + ${big(d[k])}`;
  const later = await db
    .updateTable('client_call_days')
    .set(set)
    .where('client_id', '=', clientId)
    .where('day', '>', day)
    .returning('day')
    .execute();
  const next = later.reduce<string | null>((min, r) => (min === null || r.day < min ? r.day : min), null);
  const before = prev ? sumsOf(prev) : emptySums();
  const after = plus(before, d);
  const rows: DayRow[] = [
    ...(prev ? daysBetween(shiftDate(prev.day, 1), shiftDate(day, -1)) : []).map((gap) => ({
      day: gap,
      clientId,
      daily: emptySums(),
      running: before,
    })),
    { day, clientId, daily: d, running: after },
    ...(next ? daysBetween(shiftDate(day, 1), shiftDate(next, -1)) : []).map((gap) => ({
      day: gap,
      clientId,
      daily: emptySums(),
      running: after,
    })),
  ];
  await insertDayRows(db, rows);
}

async function insertDayRows(db: Kysely<Database>, rows: DayRow[]): Promise<void> {
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

/** Adds day sums (of one sign or the other) onto the agency's day rows. */
async function addToAgencyDays(db: Kysely<Database>, rows: DayChange[]): Promise<void> {
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

/** Takes a client's days out of the agency's sums and deletes them (a rebuild or the client's deletion). */
export async function removeClientDays(db: Kysely<Database>, clientId: string): Promise<void> {
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

/**
 * A client's days recomputed from its calls: when its time zone moves its local days, and once
 * for the calls stored before the running totals existed. Grouped by 15-minute bucket in the
 * database (no bucket straddles two local days), then folded into local days here.
 */
export async function rebuildClientDays(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
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

/** How far ahead housekeeping carries every client: the zones ahead of UTC are already a day on. */
const CARRY_AHEAD_DAYS = 2;

/** The day housekeeping carries every client to (UTC's day after tomorrow). */
export const carriedThrough = (now: number): string =>
  shiftDate(new Date(now).toISOString().slice(0, 10), CARRY_AHEAD_DAYS);

/**
 * Carries every client's running totals forward to the day after tomorrow (UTC), so the portfolio
 * finds a row for every client at any day it asks about. Answers how many rows it added.
 */
export async function carryClientDaysForward(db: Kysely<Database>, now: number): Promise<number> {
  const through = carriedThrough(now);
  const behind = await db
    .selectFrom('client_call_days')
    .select('client_id')
    .select((eb) => eb.fn.max('day').as('last'))
    .groupBy('client_id')
    .having((eb) => eb.fn.max('day'), '<', through)
    .execute();
  let added = 0;
  for (const { client_id: clientId } of behind)
    added += await db.transaction().execute(async (trx) => {
      await lockClientDays(trx, [clientId]);
      const last = await trx
        .selectFrom('client_call_days')
        .select(['day', ...Object.values(RUNNING)])
        .where('client_id', '=', clientId)
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const running = sumsOf(last);
      const rows = daysBetween(shiftDate(last.day, 1), through).map((day) => ({
        day,
        clientId,
        daily: emptySums(),
        running,
      }));
      await insertDayRows(trx, rows);
      return rows.length;
    });
  return added;
}

/** The agency's running totals leave with a deleted client (its days carry no foreign key). */
export const agencyDaysListener = {
  clientDeleted: removeClientDays,
} satisfies ClientChangeListener;
