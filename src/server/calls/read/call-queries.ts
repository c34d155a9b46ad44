/**
 * Analytics reads: stats, calls over time and the call log. Totals come from the 15-minute
 * rollups; only the partial buckets at a window's two edges are read from `calls` (an index range
 * of at most 15 minutes each), so the cost does not grow with the number of calls.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { CallStatus, ChartQuery, ClientStats, DailyPoint, StatsQuery } from '../../../contract/calls';
import { DATE_RANGE_DAYS, type DateRange } from '../../../contract/common';
import type { Database } from '../../db/schema';
import { type CallWindow, requestedWindow } from '../../time/date-windows';
import { lastLocalDates, localDate, localHour, shiftDate, startOfLocalDay } from '../../time/time-zones';
import { percentChange } from '../../time/window-change';
import { BUCKET_MS } from '../write/rollups';

export interface WindowFilter {
  status?: CallStatus | null;
  pathway?: string | null;
}

/** Sums per status (or per outcome) over created_at in (from, to]. */
export interface StatusTotals {
  /** The status, or the outcome's name when totals are by outcome. */
  status: string;
  count: number;
  seconds: number;
  costMicros: number;
}

/** Status and pathway (any case) conditions; the calls and both rollup tables share the columns. */
export function filterCondition(filter: WindowFilter) {
  const parts = [sql`1 = 1`];
  if (filter.status) parts.push(sql`status = ${filter.status}`);
  if (filter.pathway) parts.push(sql`lower(pathway) = ${filter.pathway.toLowerCase()}`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

type TotalsRow = { status: string; count: number | null; seconds: number | null; cost: number | null };
// The parts read different tables; only their output shape matters to the union.
// biome-ignore lint/suspicious/noExplicitAny: the tables differ per part, the row shape does not
type TotalsQuery = SelectQueryBuilder<Database, any, TotalsRow>;

/** What window totals are grouped by: a call's status, or its outcome. */
export type TotalsDimension = 'status' | 'outcome';
const ROLLUP_TABLES = {
  status: { buckets: 'call_rollups', days: 'call_rollups_daily' },
  outcome: { buckets: 'call_outcome_rollups', days: 'call_outcome_rollups_daily' },
} as const;

/** Sums over created_at in (from, to] from 15-minute buckets, reading calls only for partial buckets. */
function bucketTotals(
  db: Kysely<Database>,
  clientId: string,
  from: number | null,
  to: number,
  filter: WindowFilter,
  by: TotalsDimension,
): TotalsQuery[] {
  // Full buckets: [fullFrom, fullTo). Calls in (from, fullFrom) and [fullTo, to] are edges.
  const fullFrom = from === null ? null : Math.ceil((from + 1) / BUCKET_MS) * BUCKET_MS;
  const fullTo = Math.floor(to / BUCKET_MS) * BUCKET_MS;
  const edge = (lo: number | null, hi: number) => {
    let q = db
      .selectFrom('calls')
      .select(sql<string>`${sql.ref(by)}`.as('status'))
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('duration_seconds').as('seconds'),
        eb.fn.sum<number>('cost_micros').as('cost'),
      ])
      .where('client_id', '=', clientId)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '<=', hi)
      .groupBy(sql.ref(by));
    if (by === 'outcome') q = q.where('outcome', 'is not', null);
    if (lo !== null) q = q.where('created_at', '>', lo);
    return q.where(filterCondition(filter)).$castTo<TotalsRow>();
  };
  if (fullFrom !== null && fullFrom >= fullTo) return [edge(from, to)];
  let q = db
    // Both rollup tables share these columns; Kysely needs one table name to type them
    .selectFrom(ROLLUP_TABLES[by].buckets as 'call_rollups')
    .select(sql<string>`${sql.ref(by)}`.as('status'))
    .select((eb) => [
      eb.fn.sum<number>('call_count').as('count'),
      eb.fn.sum<number>('total_seconds').as('seconds'),
      eb.fn.sum<number>('total_cost_micros').as('cost'),
    ])
    .where('client_id', '=', clientId)
    .where('bucket_start', '<', fullTo)
    .groupBy(sql.ref(by));
  if (fullFrom !== null) q = q.where('bucket_start', '>=', fullFrom);
  const parts: TotalsQuery[] = [q.where(filterCondition(filter)).$castTo<TotalsRow>(), edge(fullTo - 1, to)];
  if (fullFrom !== null) parts.push(edge(from, fullFrom - 1));
  return parts;
}

/**
 * Totals per status for one client over created_at in (from, to]; a null bound is open.
 * Whole local days come from the daily rollups, the partial days at the edges from 15-minute
 * buckets, and the partial buckets from calls: a few hundred rows whatever the window, read by
 * one UNION ALL statement.
 */
export async function totalsByStatus(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  from: number | null,
  to: number | null,
  filter: WindowFilter = {},
  by: TotalsDimension = 'status',
): Promise<StatusTotals[]> {
  const tz = client.timezone;
  // First whole day: the one starting right after `from`, else the next one.
  let firstDay: string | null = null;
  let firstStart: number | null = null;
  if (from !== null) {
    const day = localDate(from + 1, tz);
    const start = startOfLocalDay(day, tz);
    firstDay = start === from + 1 ? day : shiftDate(day, 1);
    firstStart = start === from + 1 ? start : startOfLocalDay(firstDay, tz);
  }
  // Last whole day: the one before the day that contains `to`.
  let lastDay: string | null = null;
  let lastEnd: number | null = null;
  if (to !== null) {
    const toDay = localDate(to, tz);
    lastEnd = startOfLocalDay(toDay, tz);
    lastDay = shiftDate(toDay, -1);
  }

  const parts: TotalsQuery[] = [];
  if (firstStart !== null && lastEnd !== null && firstStart >= lastEnd) {
    parts.push(...bucketTotals(db, client.id, from, to!, filter, by));
  } else {
    let q = db
      // Both daily rollup tables share these columns; Kysely needs one table name to type them
      .selectFrom(ROLLUP_TABLES[by].days as 'call_rollups_daily')
      .select(sql<string>`${sql.ref(by)}`.as('status'))
      .select((eb) => [
        eb.fn.sum<number>('call_count').as('count'),
        eb.fn.sum<number>('total_seconds').as('seconds'),
        eb.fn.sum<number>('total_cost_micros').as('cost'),
      ])
      .where('client_id', '=', client.id)
      .groupBy(sql.ref(by));
    if (firstDay !== null) q = q.where('day', '>=', firstDay);
    if (lastDay !== null) q = q.where('day', '<=', lastDay);
    parts.push(q.where(filterCondition(filter)).$castTo<TotalsRow>());
    if (from !== null && firstStart !== null)
      parts.push(...bucketTotals(db, client.id, from, firstStart - 1, filter, by));
    if (to !== null && lastEnd !== null)
      parts.push(...bucketTotals(db, client.id, lastEnd - 1, to, filter, by));
  }

  // One statement, one round trip: the parts are summed here rather than in SQL.
  const rows = await parts.reduce((union, part) => union.unionAll(part)).execute();
  const byStatus = new Map<string, StatusTotals>();
  for (const r of rows) {
    const t = byStatus.get(r.status) ?? { status: r.status, count: 0, seconds: 0, costMicros: 0 };
    t.count += Number(r.count ?? 0);
    t.seconds += Number(r.seconds ?? 0);
    t.costMicros += Number(r.cost ?? 0);
    byStatus.set(r.status, t);
  }
  return [...byStatus.values()].filter((t) => t.count !== 0);
}

interface WindowFigures {
  totalCalls: number;
  totalCost: number;
  avgDuration: number;
  totalTransfers: number;
}

function figures(totals: StatusTotals[]): WindowFigures {
  let totalCalls = 0;
  let costMicros = 0;
  let connectedCount = 0;
  let connectedSeconds = 0;
  let totalTransfers = 0;
  for (const t of totals) {
    totalCalls += t.count;
    costMicros += t.costMicros;
    if (t.status === 'completed' || t.status === 'transferred') {
      connectedCount += t.count;
      connectedSeconds += t.seconds;
    }
    if (t.status === 'transferred') totalTransfers += t.count;
  }
  return {
    totalCalls,
    totalCost: Math.round(costMicros / 10_000) / 100,
    avgDuration: connectedCount ? Math.round(connectedSeconds / connectedCount) : 0,
    totalTransfers,
  };
}

/** Stats over a window against the window of the same length right before it. */
export async function getClientStats(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  window: CallWindow,
  filter: WindowFilter = {},
): Promise<ClientStats> {
  const span = window.to - window.from;
  const [current, previous] = await Promise.all([
    totalsByStatus(db, client, window.from, window.to, filter),
    totalsByStatus(db, client, window.from - span, window.from, filter),
  ]);
  const c = figures(current);
  const p = figures(previous);
  return {
    ...c,
    changes: {
      totalCalls: percentChange(c.totalCalls, p.totalCalls),
      totalCost: percentChange(c.totalCost, p.totalCost),
      avgDuration: percentChange(c.avgDuration, p.avgDuration),
      totalTransfers: percentChange(c.totalTransfers, p.totalTransfers),
    },
    previousPeriod: p,
  };
}

/** One point per local day (oldest first, the last being today), counting completed calls. */
export async function getCallsOverTime(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  range: DateRange,
  now: number,
  filter: WindowFilter = {},
): Promise<DailyPoint[]> {
  const dates = lastLocalDates(now, DATE_RANGE_DAYS[range], client.timezone);
  const counts = await completedPerDay(db, client.id, dates[0], dates[dates.length - 1], filter);
  return dates.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

/** Completed calls per local day from the daily rollups, for the days first..last. */
async function completedPerDay(
  db: Kysely<Database>,
  clientId: string,
  first: string,
  last: string,
  filter: WindowFilter,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('call_rollups_daily')
    .select(['day'])
    .select((eb) => eb.fn.sum<number>('call_count').as('count'))
    .where('client_id', '=', clientId)
    .where('day', '>=', first)
    .where('day', '<=', last)
    .where(filterCondition({ ...filter, status: 'completed' }))
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.count)]));
}

/**
 * Completed calls per local day over exactly the window: the days inside it from the daily
 * rollups, the partial days at its edges from the 15-minute buckets, so the points add up to the
 * calls the log lists for the same window.
 */
export async function getCallsPerDayInWindow(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  window: CallWindow,
  filter: WindowFilter = {},
): Promise<DailyPoint[]> {
  const tz = client.timezone;
  const dates: string[] = [];
  for (let day = localDate(window.from + 1, tz); day <= localDate(window.to, tz); day = shiftDate(day, 1))
    dates.push(day);
  const completed = { ...filter, status: 'completed' as const };
  const partial = async (date: string): Promise<[string, number]> => {
    const from = Math.max(window.from, startOfLocalDay(date, tz) - 1);
    const to = Math.min(window.to, startOfLocalDay(shiftDate(date, 1), tz) - 1);
    const totals = await totalsByStatus(db, client, from, to, completed);
    return [date, totals.reduce((sum, t) => sum + t.count, 0)];
  };
  const isWhole = (date: string) =>
    startOfLocalDay(date, tz) > window.from && startOfLocalDay(shiftDate(date, 1), tz) - 1 <= window.to;
  const whole = dates.filter(isWhole);
  const [wholeCounts, edges] = await Promise.all([
    whole.length ? completedPerDay(db, client.id, whole[0], whole[whole.length - 1], filter) : new Map(),
    Promise.all(dates.filter((d) => !isWhole(d)).map(partial)),
  ]);
  const counts = new Map([...wholeCounts, ...edges]);
  return dates.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

/**
 * Completed calls per local hour over exactly the window (at most two days): full 15-minute
 * buckets from the rollups, the calls of the partial buckets at the edges one by one. Every
 * 15-minute bucket lies inside one local hour, as zones are offset by whole quarter hours.
 */
export async function getCallsPerHourInWindow(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  window: CallWindow,
  filter: WindowFilter = {},
): Promise<DailyPoint[]> {
  const tz = client.timezone;
  const completed = filterCondition({ ...filter, status: 'completed' });
  const fullFrom = Math.ceil((window.from + 1) / BUCKET_MS) * BUCKET_MS;
  const fullTo = Math.floor(window.to / BUCKET_MS) * BUCKET_MS;
  const edgeCalls = (lo: number, hi: number) =>
    db
      .selectFrom('calls')
      .select(['created_at'])
      .where('client_id', '=', client.id)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '>', lo)
      .where('created_at', '<=', hi)
      .where(completed)
      .execute();
  const [buckets, ...edges] = await Promise.all([
    fullFrom < fullTo
      ? db
          .selectFrom('call_rollups')
          .select(['bucket_start'])
          .select((eb) => eb.fn.sum<number>('call_count').as('count'))
          .where('client_id', '=', client.id)
          .where('bucket_start', '>=', fullFrom)
          .where('bucket_start', '<', fullTo)
          .where(completed)
          .groupBy('bucket_start')
          .execute()
      : Promise.resolve([]),
    ...(fullFrom < fullTo
      ? [edgeCalls(window.from, fullFrom - 1), edgeCalls(fullTo - 1, window.to)]
      : [edgeCalls(window.from, window.to)]),
  ]);
  const counts = new Map<string, number>();
  const add = (at: number, n: number) => {
    const hour = localHour(at, tz);
    counts.set(hour, (counts.get(hour) ?? 0) + n);
  };
  for (const b of buckets) add(Number(b.bucket_start), Number(b.count));
  for (const rows of edges) for (const r of rows) add(Number(r.created_at), 1);

  const hours: string[] = [];
  for (let at = window.from + 1; ; at = Math.min(at + BUCKET_MS, window.to)) {
    const hour = localHour(at, tz);
    if (hours[hours.length - 1] !== hour) hours.push(hour);
    if (at === window.to) break;
  }
  return hours.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

/** GET …/stats: the requested window and pathway, in the loaded client's zone. */
export function statsFor(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  query: StatsQuery,
  now: number,
) {
  return getClientStats(db, client, requestedWindow(query, now, client.timezone), { pathway: query.pathway });
}

/**
 * GET …/calls-over-time: DESIGN's N days ending today for a bare dateRange; per local day of the
 * exact window when the request names one; per local hour when asked.
 */
export function chartFor(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  query: ChartQuery,
  now: number,
): Promise<DailyPoint[]> {
  const filter = { pathway: query.pathway };
  const window = requestedWindow(query, now, client.timezone);
  if (query.interval === 'hour') return getCallsPerHourInWindow(db, client, window, filter);
  if (query.startDate !== undefined || query.from !== undefined)
    return getCallsPerDayInWindow(db, client, window, filter);
  return getCallsOverTime(db, client, query.dateRange, now, filter);
}
