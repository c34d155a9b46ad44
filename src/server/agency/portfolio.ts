/**
 * The agency's portfolio (issue 16's Analytics): calls, minutes, billed revenue, provider cost and
 * margin per client and in total over a range of days, against the range of the same length
 * before it, read from the running totals of `client_call_days` (three rows per client) and the
 * agency's day rows for the chart, whatever the number of calls or days.
 *
 * Each client's cents are rounded once from its micro-dollars, and the totals add those cents, so
 * the table adds up to its total line to the cent.
 */
import { type Kysely, sql } from 'kysely';
import {
  type AdminAnalytics,
  type AnalyticsChanges,
  type AnalyticsFigures,
  type AnalyticsQuery,
  type PortfolioClient,
  type PortfolioSort,
  dayCount,
  defaultOrderOf,
} from '../../contract/agency';
import { clientNameOfRow } from '../../contract/admin';
import { DATE_RANGE_DAYS, isoTime, paginationOf } from '../../contract/common';
import { percentChange } from '../calls/call-queries';
import { type DaySums, RUNNING, emptySums, plus, sumsOf } from '../calls/client-days';
import { shiftDate } from '../calls/time-zones';
import type { Database } from '../db/schema';
import {
  lastCallTimes,
  listClientsOutsidePortfolio,
  listPortfolioClients,
} from '../clients/clients-repository';

export interface DayRange {
  from: string;
  to: string;
}

/** The range a query names: its from..to, else the preset's last N days ending today (UTC's date). */
export function analyticsRange(query: AnalyticsQuery, now: number): DayRange {
  if (query.from !== undefined && query.to !== undefined) return { from: query.from, to: query.to };
  const to = new Date(now).toISOString().slice(0, 10);
  return { from: shiftDate(to, 1 - DATE_RANGE_DAYS[query.dateRange]), to };
}

export function previousRange(range: DayRange): DayRange {
  const days = dayCount(range.from, range.to);
  return { from: shiftDate(range.from, -days), to: shiftDate(range.from, -1) };
}

/** Raw sums of one client over one period. */
export type PeriodSums = DaySums;

const ALL_SUMS = Object.keys(RUNNING) as (keyof DaySums)[];

const EMPTY: PeriodSums = emptySums();

const cents = (micros: number) => Math.round(micros / 10_000);

/**
 * Each client's running totals through each of `days`. Every client has a row at every day
 * between its first and the day after tomorrow (calls/client-days.ts), so this is one contiguous
 * read per day. A client without a row at a day but with one at a later day asked for had not
 * started yet: nothing. Only one without a later row (no calls ever, or not carried forward yet)
 * is looked up by its last day before.
 */
export async function runningTotalsAt(
  db: Kysely<Database>,
  clients: string[] | Promise<string[]>,
  days: string[],
  /** The sums wanted (the others read as 0): reading rows is most of the cost, each value counts. */
  sums: readonly (keyof DaySums)[] = ALL_SUMS,
): Promise<RunningTotals> {
  const out = new Map(days.map((day) => [day, new Map<string, DaySums>()]));
  const columns = ['day', 'client_id', ...sums.map((k) => RUNNING[k])] as const;
  // The clients may still be on their way: the days are read meanwhile.
  const [rows, clientIds] = await Promise.all([
    db.selectFrom('client_call_days').select(columns).where('day', 'in', days).execute(),
    clients,
  ]);
  for (const row of rows) out.get(row.day)?.set(row.client_id, sumsOf(row));
  const ascending = [...out.keys()].sort();
  for (const [i, day] of ascending.entries()) {
    const found = out.get(day) ?? new Map<string, DaySums>();
    const later = ascending.slice(i + 1).map((d) => out.get(d));
    const missing = clientIds.filter((id) => !found.has(id) && !later.some((totals) => totals?.has(id)));
    for (let i = 0; i < missing.length; i += 500) {
      const latest = await db
        .selectFrom('client_call_days')
        .select('client_id as id')
        .select((eb) => eb.fn.max('day').as('day'))
        .where('client_id', 'in', missing.slice(i, i + 500))
        .where('day', '<=', day)
        .groupBy('client_id')
        .execute();
      const pairs = latest.filter((l): l is { id: string; day: string } => l.day !== null);
      if (pairs.length === 0) continue;
      const earlier = await db
        .selectFrom('client_call_days')
        .select(columns)
        .where((eb) =>
          eb(
            eb.refTuple('client_id', 'day'),
            'in',
            pairs.map((p) => eb.tuple(p.id, p.day)),
          ),
        )
        .execute();
      for (const row of earlier) found.set(row.client_id, sumsOf(row));
    }
  }
  return out;
}

const minus = (a: DaySums | undefined, b: DaySums | undefined): DaySums => plus(a ?? EMPTY, b ?? EMPTY, -1);

/** The days whose running totals give `range`'s sums and those of the period before it. */
export function periodPoints(range: DayRange): [start: string, middle: string, end: string] {
  return [shiftDate(previousRange(range).from, -1), shiftDate(range.from, -1), range.to];
}

export type RunningTotals = Map<string, Map<string, DaySums>>;

/**
 * Reads each client's sums over `range` and the period before it from totals read at
 * periodPoints(range). The points are worked out once: per client they cost more than the sums.
 */
export function periodSumsReader(
  totals: RunningTotals,
  range: DayRange,
): (clientId: string) => { current: PeriodSums; previous: PeriodSums } {
  const [start, middle, end] = periodPoints(range).map((day) => totals.get(day));
  return (clientId) => {
    const [s, m, e] = [start?.get(clientId), middle?.get(clientId), end?.get(clientId)];
    return { current: minus(e, m), previous: minus(m, s) };
  };
}

/**
 * The portfolio's chart: every onboarded client's calls, revenue and cost per day, from the
 * agency's day rows less the days of clients not (or not yet) onboarded, who are few.
 */
async function portfolioSeries(db: Kysely<Database>, range: DayRange) {
  const sums = (table: 'agency_call_days' | 'client_call_days') =>
    [
      sql<number>`sum(${sql.ref(`${table}.call_count`)})`.as('calls'),
      sql<number>`sum(${sql.ref(`${table}.total_cost_micros`)})`.as('revenue'),
      sql<number>`sum(${sql.ref(`${table}.total_provider_micros`)})`.as('cost'),
    ] as const;
  const [all, outside] = await Promise.all([
    db
      .selectFrom('agency_call_days')
      .select('day')
      .select(sums('agency_call_days'))
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('day')
      .execute(),
    // Clients not (or not yet) onboarded are few: their days are read by client.
    listClientsOutsidePortfolio(db).then((outsiders) =>
      outsiders.length === 0
        ? []
        : db
            .selectFrom('client_call_days')
            .select('day')
            .select(sums('client_call_days'))
            .where(
              'client_id',
              'in',
              outsiders.map((o) => o.id),
            )
            .where('day', '>=', range.from)
            .where('day', '<=', range.to)
            .groupBy('day')
            .execute(),
    ),
  ]);
  const byDay = new Map(all.map((d) => [d.day, d]));
  const less = new Map(outside.map((d) => [d.day, d]));
  const points: AdminAnalytics['series'] = [];
  for (let day = range.from; day <= range.to; day = shiftDate(day, 1)) {
    const d = byDay.get(day);
    const o = less.get(day);
    const net = (pick: 'calls' | 'revenue' | 'cost') => Number(d?.[pick] ?? 0) - Number(o?.[pick] ?? 0);
    points.push({
      date: day,
      calls: net('calls'),
      revenueCents: cents(net('revenue')),
      costCents: cents(net('cost')),
    });
  }
  return points;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 10;

function figures(s: PeriodSums): AnalyticsFigures {
  const revenueCents = cents(s.costMicros);
  const costCents = cents(s.providerMicros);
  return figuresFromCents(s, revenueCents, costCents);
}

function figuresFromCents(
  s: Pick<PeriodSums, 'calls' | 'seconds' | 'answered' | 'failed'>,
  revenueCents: number,
  costCents: number,
): AnalyticsFigures {
  const marginCents = revenueCents - costCents;
  return {
    calls: s.calls,
    minutes: Math.round((s.seconds / 60) * 10) / 10,
    revenueCents,
    costCents,
    marginCents,
    marginPercent: percent(marginCents, revenueCents),
    answerRate: percent(s.answered, s.calls),
    failureRate: percent(s.failed, s.calls),
  };
}

function changes(current: AnalyticsFigures, previous: AnalyticsFigures): AnalyticsChanges {
  return {
    calls: percentChange(current.calls, previous.calls),
    minutes: percentChange(current.minutes, previous.minutes),
    revenueCents: percentChange(current.revenueCents, previous.revenueCents),
    costCents: percentChange(current.costCents, previous.costCents),
    marginCents: percentChange(current.marginCents, previous.marginCents),
  };
}

/** The total line of a period: every client added as it is read, its money rounded to cents once. */
interface TotalLine {
  calls: number;
  seconds: number;
  answered: number;
  failed: number;
  revenueCents: number;
  costCents: number;
}

const emptyTotalLine = (): TotalLine => ({
  calls: 0,
  seconds: 0,
  answered: 0,
  failed: 0,
  revenueCents: 0,
  costCents: 0,
});

function addToTotal(total: TotalLine, s: PeriodSums): void {
  total.calls += s.calls;
  total.seconds += s.seconds;
  total.answered += s.answered;
  total.failed += s.failed;
  total.revenueCents += cents(s.costMicros);
  total.costCents += cents(s.providerMicros);
}

/** A client's row before paging: its changes are worked out for the rows of the page only. */
type TableRow = Omit<PortfolioClient, 'changes'> & { previous: PeriodSums };

/** Orders rows by a column; a row without a value (no calls, no revenue) goes last either way. */
function compareBy(sort: PortfolioSort, order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: TableRow, b: TableRow): number => {
    const x = a[sort];
    const y = b[sort];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return a.name.localeCompare(b.name) || a.clientId.localeCompare(b.clientId);
  };
}

const matches = (search: string | undefined) => {
  const needle = search?.toLowerCase();
  return (row: TableRow) =>
    !needle || row.name.toLowerCase().includes(needle) || row.email.toLowerCase().includes(needle);
};

export async function portfolioAnalytics(
  db: Kysely<Database>,
  query: AnalyticsQuery,
  now: number,
): Promise<AdminAnalytics> {
  const range = analyticsRange(query, now);
  const before = previousRange(range);
  const onboarded = listPortfolioClients(db);
  const byLastCall = query.sort === 'lastCallAt';
  const ids = onboarded.then((list) => list.map((c) => c.id));
  const [clients, runningTotals, series, everyLastCall] = await Promise.all([
    onboarded,
    runningTotalsAt(db, ids, periodPoints(range)),
    portfolioSeries(db, range),
    // Ordered by last call, every client's is needed; otherwise only the page's (below).
    byLastCall ? ids.then((list) => lastCallTimes(db, list)) : null,
  ]);

  const rows: TableRow[] = [];
  const current = emptyTotalLine();
  const earlier = emptyTotalLine();
  const sumsOfClient = periodSumsReader(runningTotals, range);
  for (const c of clients) {
    const s = sumsOfClient(c.id);
    addToTotal(current, s.current);
    addToTotal(earlier, s.previous);
    rows.push({
      clientId: c.id,
      name: clientNameOfRow(c),
      email: c.email,
      isActive: c.is_active === 1,
      ...figures(s.current),
      lastCallAt: isoTime(everyLastCall?.get(c.id)),
      previous: s.previous,
    });
  }
  const totals = figuresFromCents(current, current.revenueCents, current.costCents);
  const previousTotals = figuresFromCents(earlier, earlier.revenueCents, earlier.costCents);

  const matching = rows.filter(matches(query.search));
  matching.sort(compareBy(query.sort, query.order ?? defaultOrderOf(query.sort)));
  const pagination = paginationOf(query.page, query.limit, matching.length);
  const start = (pagination.page - 1) * pagination.limit;
  const onPage = matching.slice(start, start + pagination.limit);
  const lastCalls = byLastCall
    ? null
    : await lastCallTimes(
        db,
        onPage.map((r) => r.clientId),
      );
  const page: PortfolioClient[] = onPage.map(({ previous: earlierSums, ...row }) => ({
    ...row,
    changes: changes(row, figures(earlierSums)),
    lastCallAt: lastCalls ? isoTime(lastCalls.get(row.clientId)) : row.lastCallAt,
  }));

  return {
    range: { ...range, days: dayCount(range.from, range.to) },
    previous: before,
    totals,
    changes: changes(totals, previousTotals),
    series,
    clients: page,
    pagination,
  };
}
