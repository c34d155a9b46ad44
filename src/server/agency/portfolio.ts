/**
 * The agency's portfolio (issue 16's Analytics): calls, minutes, billed revenue, provider cost and
 * margin per client and in total over a range of days, against the range of the same length
 * before it, read from the running totals of `client_call_days` (each client's sums over a range
 * are two of its rows subtracted) and the agency's day rows for the chart, whatever the number of
 * calls or days. The database does the per-client arithmetic, the order and the paging, so a
 * request reads a total line and one page of rows, not every client's rows.
 *
 * Each client's cents are rounded once from its micro-dollars, and the totals add those cents, so
 * the table adds up to its total line to the cent.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  type AdminAnalytics,
  type AnalyticsChanges,
  type AnalyticsFigures,
  type AnalyticsQuery,
  type PortfolioSort,
  dayCount,
  defaultOrderOf,
} from '../../contract/agency';
import { clientNameOfRow } from '../../contract/admin';
import { DATE_RANGE_DAYS, isoTime, paginationOf } from '../../contract/common';
import { percentChange } from '../calls/call-queries';
import {
  type DaySums,
  RUNNING,
  carriedThrough,
  carryClientDaysForward,
  emptySums,
  plus,
  sumsOf,
} from '../calls/client-days';
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

/** The SQL of one client's running total of a sum at a period point (0 before its first day). */
const totalAt = (point: 'e' | 'm' | 's', sum: keyof DaySums) =>
  sql<number>`coalesce(${sql.ref(`${point}.${RUNNING[sum]}`)}, 0)`;
/** A client's sum over the range (end less middle) or over the period before it (middle less start). */
const currentSum = (sum: keyof DaySums) => sql<number>`(${totalAt('e', sum)} - ${totalAt('m', sum)})`;
const previousSum = (sum: keyof DaySums) => sql<number>`(${totalAt('m', sum)} - ${totalAt('s', sum)})`;
/** Micro-dollars to whole cents, half up, in integers: the same on both databases as cents() here. */
const centsSql = (micros: RawBuilder<number>) => sql<number>`((${micros} + 5000) / 10000)`;
/** A share in SQL, null without a whole (sorting only: the answer's percentages are worked out below). */
const shareSql = (part: RawBuilder<number>, whole: RawBuilder<number>) =>
  sql<number | null>`case when ${whole} = 0 then null else ${part} * 1.0 / ${whole} end`;
/** How lists name a client (clientNameOfRow): its company, else the person. */
const nameSql = sql<string>`coalesce(nullif(c.company_name, ''), trim(c.first_name || ' ' || c.last_name))`;

const revenueSql = centsSql(currentSum('costMicros'));
const costSql = centsSql(currentSum('providerMicros'));
/** What each sortable column orders by, computed where the rows are. */
const SORT_SQL: Record<PortfolioSort, RawBuilder<unknown>> = {
  name: sql`lower(${nameSql})`,
  revenueCents: revenueSql,
  costCents: costSql,
  marginCents: sql`(${revenueSql} - ${costSql})`,
  marginPercent: shareSql(sql`(${revenueSql} - ${costSql})`, revenueSql),
  calls: currentSum('calls'),
  minutes: currentSum('seconds'),
  answerRate: shareSql(currentSum('answered'), currentSum('calls')),
  failureRate: shareSql(currentSum('failed'), currentSum('calls')),
  // As lastCallTimes: confirmed calls only, newest first through the (client, created) index.
  lastCallAt: sql`(select calls.created_at from calls where calls.client_id = c.id and calls.verified = 1
    order by calls.created_at desc limit 1)`,
};

/**
 * The onboarded clients with their running totals at the three points of `range`
 * (periodPoints): `e` at its end, `m` the day before it, `s` the day before the previous period.
 * Every client has a row at every day from its first to the day after tomorrow, so a missing row
 * means it had not started (0); rows not carried that far yet are found and carried first
 * (portfolioAnalytics).
 */
function clientsAtPoints(db: Kysely<Database>, [start, middle, end]: string[]) {
  return db
    .selectFrom('clients as c')
    .leftJoin('client_call_days as e', (join) => join.onRef('e.client_id', '=', 'c.id').on('e.day', '=', end))
    .leftJoin('client_call_days as m', (join) =>
      join.onRef('m.client_id', '=', 'c.id').on('m.day', '=', middle),
    )
    .leftJoin('client_call_days as s', (join) =>
      join.onRef('s.client_id', '=', 'c.id').on('s.day', '=', start),
    )
    .where('c.onboarding_status', '=', 'active');
}

type AtPoints = ReturnType<typeof clientsAtPoints>;

/**
 * The total lines of both periods over every onboarded client, each client's money rounded to
 * cents once, so the table adds up to them; and how many clients' rows stop before the range's
 * end (rows housekeeping has not carried forward yet).
 */
async function portfolioTotals(atPoints: AtPoints, end: string) {
  const COUNTS = ['calls', 'seconds', 'answered', 'failed'] as const;
  const periods = { current: currentSum, previous: previousSum };
  const row: Record<string, unknown> = await atPoints
    .select([
      ...Object.entries(periods).flatMap(([period, of]) => [
        ...COUNTS.map((sum) => sql<string>`sum(${of(sum)})`.as(`${period}_${sum}`)),
        sql<string>`sum(${centsSql(of('costMicros'))})`.as(`${period}_revenue`),
        sql<string>`sum(${centsSql(of('providerMicros'))})`.as(`${period}_cost`),
      ]),
      sql<string>`count(*)`.as('clients'),
      sql<string>`sum(case when e.client_id is null and exists (select 1 from client_call_days d
        where d.client_id = c.id and d.day < ${end}) then 1 else 0 end)`.as('behind'),
    ])
    .executeTakeFirstOrThrow();
  const value = (column: string) => Number(row[column] ?? 0);
  const line = (period: keyof typeof periods) =>
    figuresFromCents(
      Object.fromEntries(COUNTS.map((sum) => [sum, value(`${period}_${sum}`)])) as Record<
        (typeof COUNTS)[number],
        number
      >,
      value(`${period}_revenue`),
      value(`${period}_cost`),
    );
  return {
    current: line('current'),
    previous: line('previous'),
    clients: value('clients'),
    behind: value('behind'),
  };
}

/** The client table's page in the asked order, ties by name; `ids` narrows it to a search's matches. */
async function portfolioPage(atPoints: AtPoints, query: AnalyticsQuery, ids: string[] | null) {
  if (ids?.length === 0) return [];
  const key = SORT_SQL[query.sort];
  const order = query.order ?? defaultOrderOf(query.sort);
  let page = atPoints.select([
    'c.id',
    'c.first_name',
    'c.last_name',
    'c.company_name',
    'c.email',
    'c.is_active',
    ...ALL_SUMS.map((sum) => currentSum(sum).as(`current_${sum}`)),
    ...ALL_SUMS.map((sum) => previousSum(sum).as(`previous_${sum}`)),
  ]);
  if (ids) page = page.where('c.id', 'in', ids);
  const rows = await page
    // Clients without a value (no calls, no revenue) go last either way.
    .orderBy(sql`case when ${key} is null then 1 else 0 end`)
    .orderBy(key, order)
    .orderBy(sql`lower(${nameSql})`)
    .orderBy('c.id')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return rows.map((row) => {
    const sums = (prefix: 'current' | 'previous'): PeriodSums =>
      sumsOf(row, Object.fromEntries(ALL_SUMS.map((sum) => [sum, `${prefix}_${sum}`])) as never);
    return { row, current: sums('current'), previous: sums('previous') };
  });
}

/** The onboarded clients whose name or e-mail holds `search`, in any case (as the browser compares). */
async function clientsMatching(db: Kysely<Database>, search: string): Promise<string[]> {
  const needle = search.toLowerCase();
  const clients = await listPortfolioClients(db);
  return clients
    .filter(
      (c) => clientNameOfRow(c).toLowerCase().includes(needle) || c.email.toLowerCase().includes(needle),
    )
    .map((c) => c.id);
}

/** The portfolio over a range: totals and changes, the chart, and one page of the client table. */
export async function portfolioAnalytics(
  db: Kysely<Database>,
  query: AnalyticsQuery,
  now: number,
): Promise<AdminAnalytics> {
  const range = analyticsRange(query, now);
  const before = previousRange(range);
  // No client is carried past this day, so a later point reads there (only calls dated in the
  // future could lie beyond it).
  const last = carriedThrough(now);
  const points = periodPoints(range).map((day) => [day, last].sort()[0]);
  const atPoints = clientsAtPoints(db, points);
  const ids = query.search ? clientsMatching(db, query.search) : null;
  const [totals, series, page] = await Promise.all([
    portfolioTotals(atPoints, points[2]),
    portfolioSeries(db, range),
    Promise.resolve(ids).then((matching) => portfolioPage(atPoints, query, matching)),
  ]);
  if (totals.behind > 0 && (await carryClientDaysForward(db, now)) > 0) {
    // Housekeeping has not carried every client this far yet (the app was down): carried now, so
    // the rows are dense again, and read again.
    return portfolioAnalytics(db, query, now);
  }
  const lastCalls = await lastCallTimes(
    db,
    page.map((p) => p.row.id),
  );
  return {
    range: { ...range, days: dayCount(range.from, range.to) },
    previous: before,
    totals: totals.current,
    changes: changes(totals.current, totals.previous),
    series,
    clients: page.map(({ row, current, previous }) => {
      const now = figures(current);
      return {
        clientId: row.id,
        name: clientNameOfRow(row),
        email: row.email,
        isActive: row.is_active === 1,
        ...now,
        changes: changes(now, figures(previous)),
        lastCallAt: isoTime(lastCalls.get(row.id)),
      };
    }),
    pagination: paginationOf(query.page, query.limit, ids ? (await ids).length : totals.clients),
  };
}
