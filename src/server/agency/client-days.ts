/**
 * `client_call_days`: one row per client and local day with what the agency's
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

import { type Kysely, sql } from 'kysely';
import type { ClientChangeListener } from '../clients/client-changes';
import { isPostgres } from '../db/dialect';
import type { CallRow, Database } from '../db/schema';
import { localDate, shiftDate } from '../time/time-zones';

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
    const clientIds = [...new Set(rows.map((r) => r.clientId))];
    await lockClientDays(db, clientIds);
    // A fixed number of statements whatever the number of clients and days (a sync's
    // page spanning many days wrote them one at a time): the clients' first and last days, one
    // update of every existing day from the earliest change on, one insert of the missing days.
    const bounds = await dayBounds(db, clientIds, rows);
    await addToExistingDays(db, rows);
    await insertDayRows(db, missingDays(rows, bounds));
    await addToAgencyDays(db, rows);
  }
}

interface DayChange {
  clientId: string;
  day: string;
  sums: DaySums;
}

/** A client's existing days: its first and last, and the running totals through its last. */
interface DayBounds {
  first: string;
  last: string;
  lastRunning: DaySums;
}

/** The day bounds of these clients (absent: no day yet); the last day's totals when a change lies past it. */
async function dayBounds(
  db: Kysely<Database>,
  clientIds: string[],
  changes: DayChange[],
): Promise<Map<string, DayBounds>> {
  const found = await db
    .selectFrom('client_call_days')
    .select('client_id')
    .select((eb) => [eb.fn.min<string>('day').as('first'), eb.fn.max<string>('day').as('last')])
    .where('client_id', 'in', clientIds)
    .groupBy('client_id')
    .execute();
  const bounds = new Map<string, DayBounds>(
    found.map((r) => [r.client_id, { first: r.first, last: r.last, lastRunning: emptySums() }]),
  );
  const latest = new Map<string, string>();
  for (const c of changes) if (c.day > (latest.get(c.clientId) ?? '')) latest.set(c.clientId, c.day);
  const past = [...bounds.entries()].filter(([id, b]) => (latest.get(id) ?? '') > b.last);
  if (past.length > 0) {
    const lastRows = await db
      .selectFrom('client_call_days')
      .select(['client_id', ...Object.values(RUNNING)])
      .where((eb) => eb.or(past.map(([id, b]) => eb.and([eb('client_id', '=', id), eb('day', '=', b.last)]))))
      .execute();
    for (const r of lastRows) bounds.get(r.client_id)!.lastRunning = sumsOf(r);
  }
  return bounds;
}

/** One past the last day any row can have: the open end of a client's last change. */
const END_OF_DAYS = '9999-12-31';

/**
 * Adds the changes to the existing days, for many clients and days in one statement: each
 * existing day from a client's earliest change on takes the sum of the changes up to it into its
 * running totals, and its own day's change into its day sums. A client's changes cut its days
 * into ranges ([a change's day, the next change's day)), so every row matches one VALUES tuple
 * (an UPDATE … FROM applies only one of several matches).
 */
async function addToExistingDays(db: Kysely<Database>, changes: DayChange[]): Promise<void> {
  const tuples: { clientId: string; from: string; to: string; running: DaySums; daily: DaySums }[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i];
    const next = changes[i + 1];
    const sameClient = i > 0 && changes[i - 1].clientId === c.clientId;
    const running = sameClient ? plus(tuples[tuples.length - 1].running, c.sums) : c.sums;
    tuples.push({
      clientId: c.clientId,
      from: c.day,
      to: next?.clientId === c.clientId ? next.day : END_OF_DAYS,
      running,
      daily: c.sums,
    });
  }
  // VALUES columns are column1… on both databases: client, from, to, then the running sums and
  // the day's sums, each in KEYS order.
  const runningOf = (k: (typeof KEYS)[number]) => sql.ref(`v.column${4 + KEYS.indexOf(k)}`);
  const dailyOf = (k: (typeof KEYS)[number]) => sql.ref(`v.column${4 + KEYS.length + KEYS.indexOf(k)}`);
  const sets = KEYS.flatMap((k) => [
    sql`${sql.ref(RUNNING[k])} = ${sql.ref(RUNNING[k])} + ${runningOf(k)}`,
    sql`${sql.ref(DAILY[k])} = ${sql.ref(DAILY[k])} + case when client_call_days.day = v.column2 then ${dailyOf(k)} else 0 end`,
  ]);
  for (let i = 0; i < tuples.length; i += 100) {
    const values = tuples
      .slice(i, i + 100)
      .map(
        (t) =>
          sql`(${t.clientId}, ${t.from}, ${t.to}, ${sql.join([...KEYS.map((k) => big(t.running[k])), ...KEYS.map((k) => big(t.daily[k]))])})`,
      );
    await sql`update client_call_days set ${sql.join(sets)}
      from (values ${sql.join(values)}) as v
      where client_call_days.client_id = v.column1 and client_call_days.day >= v.column2
        and client_call_days.day < v.column3`.execute(db);
  }
}

/**
 * The days to insert so each client's days stay dense and cover its changes: those before its
 * first day (or all of them, for a client with none) and those after its last, each with its
 * change and the running totals through it.
 */
function missingDays(changes: DayChange[], bounds: Map<string, DayBounds>): DayRow[] {
  const out: DayRow[] = [];
  const byClient = new Map<string, DayChange[]>();
  for (const c of changes) byClient.set(c.clientId, [...(byClient.get(c.clientId) ?? []), c]);
  for (const [clientId, own] of byClient) {
    const change = new Map(own.map((c) => [c.day, c.sums]));
    const lo = own[0].day;
    const hi = own[own.length - 1].day;
    const b = bounds.get(clientId);
    const fill = (from: string, to: string, base: DaySums) => {
      let running = base;
      // The changes before `from` count in its running totals too.
      for (const c of own) if (c.day < from) running = plus(running, c.sums);
      for (const day of daysBetween(from, to)) {
        const daily = change.get(day) ?? emptySums();
        running = plus(running, daily);
        out.push({ day, clientId, daily, running });
      }
    };
    if (!b) fill(lo, hi, emptySums());
    else {
      if (lo < b.first) fill(lo, shiftDate(b.first, -1), emptySums());
      if (hi > b.last) fill(shiftDate(b.last, 1), hi, b.lastRunning);
    }
  }
  return out;
}

/**
 * On PostgreSQL, one writer at a time per client for its days: a day row inserted with the
 * running total before it must not miss a concurrent change to an earlier day. (SQLite's
 * transactions already run one at a time.) All of a batch's clients in one statement, in id order.
 */
async function lockClientDays(db: Kysely<Database>, clientIds: string[]): Promise<void> {
  if (!isPostgres(db) || clientIds.length === 0) return;
  const keys = [...new Set(clientIds)].sort().map((id) => `client_call_days:${id}`);
  await sql`select pg_advisory_xact_lock(hashtextextended(t.key, 0))
    from unnest(cast(${keys} as text[])) with ordinality as t(key, n) order by t.n`.execute(db);
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
