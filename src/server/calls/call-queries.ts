/**
 * Analytics reads: stats, calls over time and the call log. Totals come from the 15-minute
 * rollups; only the partial buckets at a window's two edges are read from `calls` (an index range
 * of at most 15 minutes each), so the cost does not grow with the number of calls.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Call, CallStatus, CallsPage, CallsQuery, ClientStats, DailyPoint } from '../../contract/calls';
import { DATE_RANGE_DAYS, type DateRange } from '../../contract/common';
import type { CallRow, Database } from '../db/schema';
import { BUCKET_MS } from './rollups';
import { lastLocalDates, localDate, startOfLocalDay } from './time-zones';
import { timeZoneOf } from '../clients/clients-repository';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WindowFilter {
  status?: CallStatus | null;
  pathway?: string | null;
}

/** Sums per status over created_at in (from, to]. */
export interface StatusTotals {
  status: string;
  count: number;
  seconds: number;
  costMicros: number;
}

/** Status and pathway (any case) conditions; the calls and both rollup tables share the columns. */
function filterCondition(filter: WindowFilter) {
  const parts = [sql`1 = 1`];
  if (filter.status) parts.push(sql`status = ${filter.status}`);
  if (filter.pathway) parts.push(sql`lower(pathway) = ${filter.pathway.toLowerCase()}`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

type TotalsRow = { status: string; count: number | null; seconds: number | null; cost: number | null };
// The parts read different tables; only their output shape matters to the union.
// biome-ignore lint/suspicious/noExplicitAny: the tables differ per part, the row shape does not
type TotalsQuery = SelectQueryBuilder<Database, any, TotalsRow>;

/** Sums over created_at in (from, to] from 15-minute buckets, reading calls only for partial buckets. */
function bucketTotals(
  db: Kysely<Database>,
  clientId: string,
  from: number | null,
  to: number,
  filter: WindowFilter,
): TotalsQuery[] {
  // Full buckets: [fullFrom, fullTo). Calls in (from, fullFrom) and [fullTo, to] are edges.
  const fullFrom = from === null ? null : Math.ceil((from + 1) / BUCKET_MS) * BUCKET_MS;
  const fullTo = Math.floor(to / BUCKET_MS) * BUCKET_MS;
  const edge = (lo: number | null, hi: number) => {
    let q = db
      .selectFrom('calls')
      .select(['status'])
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('duration_seconds').as('seconds'),
        eb.fn.sum<number>('cost_micros').as('cost'),
      ])
      .where('client_id', '=', clientId)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '<=', hi)
      .groupBy('status');
    if (lo !== null) q = q.where('created_at', '>', lo);
    return q.where(filterCondition(filter)).$castTo<TotalsRow>();
  };
  if (fullFrom !== null && fullFrom >= fullTo) return [edge(from, to)];
  let q = db
    .selectFrom('call_rollups')
    .select(['status'])
    .select((eb) => [
      eb.fn.sum<number>('call_count').as('count'),
      eb.fn.sum<number>('total_seconds').as('seconds'),
      eb.fn.sum<number>('total_cost_micros').as('cost'),
    ])
    .where('client_id', '=', clientId)
    .where('bucket_start', '<', fullTo)
    .groupBy('status');
  if (fullFrom !== null) q = q.where('bucket_start', '>=', fullFrom);
  const parts: TotalsQuery[] = [q.where(filterCondition(filter)).$castTo<TotalsRow>(), edge(fullTo - 1, to)];
  if (fullFrom !== null) parts.push(edge(from, fullFrom - 1));
  return parts;
}

function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
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
    parts.push(...bucketTotals(db, client.id, from, to!, filter));
  } else {
    let q = db
      .selectFrom('call_rollups_daily')
      .select(['status'])
      .select((eb) => [
        eb.fn.sum<number>('call_count').as('count'),
        eb.fn.sum<number>('total_seconds').as('seconds'),
        eb.fn.sum<number>('total_cost_micros').as('cost'),
      ])
      .where('client_id', '=', client.id)
      .groupBy('status');
    if (firstDay !== null) q = q.where('day', '>=', firstDay);
    if (lastDay !== null) q = q.where('day', '<=', lastDay);
    parts.push(q.where(filterCondition(filter)).$castTo<TotalsRow>());
    if (from !== null && firstStart !== null)
      parts.push(...bucketTotals(db, client.id, from, firstStart - 1, filter));
    if (to !== null && lastEnd !== null) parts.push(...bucketTotals(db, client.id, lastEnd - 1, to, filter));
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

/** Percent change against the earlier window: 0 when both are 0, 100 when only the earlier is 0. */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return current === 0 ? 0 : 100;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** Stats over the rolling window (now − N days, now] against the N days before it. */
export async function getClientStats(
  db: Kysely<Database>,
  clientId: string,
  range: DateRange,
  now: number,
): Promise<ClientStats> {
  const span = DATE_RANGE_DAYS[range] * DAY_MS;
  const client = { id: clientId, timezone: await timeZoneOf(db, clientId) };
  const [current, previous] = await Promise.all([
    totalsByStatus(db, client, now - span, now),
    totalsByStatus(db, client, now - 2 * span, now - span),
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
): Promise<DailyPoint[]> {
  const dates = lastLocalDates(now, DATE_RANGE_DAYS[range], client.timezone);
  const rows = await db
    .selectFrom('call_rollups_daily')
    .select(['day'])
    .select((eb) => eb.fn.sum<number>('call_count').as('count'))
    .where('client_id', '=', client.id)
    .where('status', '=', 'completed')
    .where('day', '>=', dates[0])
    .where('day', '<=', dates[dates.length - 1])
    .groupBy('day')
    .execute();
  const counts = new Map(rows.map((r) => [r.day, Number(r.count)]));
  return dates.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

export function toCall(
  row: CallRow,
  recordingPath: (id: string) => string = (id) => `/api/recording/${id}`,
): Call {
  return {
    id: row.id,
    providerCallId: row.provider_call_id,
    fromNumber: row.from_number,
    toNumber: row.to_number,
    duration: row.duration_seconds,
    status: row.status,
    pathway: row.pathway,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.recording_url ? { recordingUrl: recordingPath(row.id) } : {}),
    transcript: row.transcript,
    cost: Math.round(row.cost_micros / 10_000) / 100,
    isSample: row.source === 'sample',
  };
}

/**
 * A number as the screen shows it ("+1 415 555 0123", "(415) 555-0123") as stored (E.164 digits),
 * so what a client copies from the log finds the call; other text is left as typed.
 */
function compactPhone(text: string): string {
  return /^\+?[\d\s().-]+$/.test(text) ? text.replace(/[\s().-]/g, '') : text;
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The call log, newest first, with its total count. */
export async function listCalls(
  db: Kysely<Database>,
  clientId: string,
  query: CallsQuery,
): Promise<CallsPage> {
  const { page, limit } = query;
  const filter: WindowFilter = { status: query.status, pathway: query.pathway };
  const from = query.startDate === undefined ? null : query.startDate - 1;
  const to = query.endDate ?? null;

  let base = db
    .selectFrom('calls')
    .where('client_id', '=', clientId)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1);
  if (from !== null) base = base.where('created_at', '>', from);
  if (query.endDate !== undefined) base = base.where('created_at', '<=', query.endDate);
  if (filter.status) base = base.where('status', '=', filter.status);
  if (filter.pathway) base = base.where(sql`lower(pathway)`, '=', filter.pathway.toLowerCase());
  if (query.search) {
    const pattern = likePattern(query.search);
    const phonePattern = likePattern(compactPhone(query.search));
    base = base.where((eb) =>
      eb.or([
        eb(sql`from_number`, 'like', sql`${phonePattern} escape '\\'`),
        eb(sql`to_number`, 'like', sql`${phonePattern} escape '\\'`),
        eb(sql`id`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`provider_call_id`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(transcript, ''))`, 'like', sql`${pattern.toLowerCase()} escape '\\'`),
      ]),
    );
  }

  // Without a text search the count comes from rollups; with one it has to look at the calls.
  const total = query.search
    ? Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    : (
        await totalsByStatus(db, { id: clientId, timezone: await timeZoneOf(db, clientId) }, from, to, filter)
      ).reduce((n, t) => n + t.count, 0);
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const offset = (page - 1) * limit;

  let rows: CallRow[] = [];
  if (offset < total) {
    // Deep pages read from the other end of the index, so the last page is as cheap as the first.
    const fromEnd = offset + limit > total / 2;
    if (fromEnd) {
      const take = Math.min(limit, total - offset);
      const skip = total - offset - take;
      rows = (
        await base
          .selectAll()
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc')
          .limit(take)
          .offset(skip)
          .execute()
      ).reverse();
    } else {
      rows = await base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    }
  }
  return { calls: rows.map((r) => toCall(r)), pagination: { page, limit, total, totalPages } };
}
