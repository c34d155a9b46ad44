/**
 * The agency's portfolio (issue 16's Analytics): calls, minutes, billed revenue, provider cost and
 * margin per client and in total over a range of days, against the range of the same length
 * before it, read from `client_call_days` (one row per client and day): two grouped reads,
 * whatever the number of calls.
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
  dayCount,
} from '../../contract/agency';
import { clientNameOfRow } from '../../contract/admin';
import { DATE_RANGE_DAYS } from '../../contract/common';
import { percentChange } from '../calls/call-queries';
import { type DaySums, emptySums } from '../calls/client-days';
import { shiftDate } from '../calls/time-zones';
import type { Database } from '../db/schema';
import { listPortfolioClients } from '../clients/clients-repository';

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

/** Raw sums of one client over one period: the days' sums added up. */
export type PeriodSums = DaySums;

const EMPTY: PeriodSums = emptySums();

const COLUMNS = {
  calls: 'call_count',
  seconds: 'total_seconds',
  costMicros: 'total_cost_micros',
  providerMicros: 'total_provider_micros',
  answered: 'answered_count',
  failed: 'failed_count',
} as const satisfies Record<keyof PeriodSums, string>;

/**
 * Every onboarded client's sums over `range` and over the period before it, in one pass over the
 * days of both (clients without a call in them are absent).
 */
export async function sumsByClient(
  db: Kysely<Database>,
  range: DayRange,
): Promise<Map<string, { current: PeriodSums; previous: PeriodSums }>> {
  const before = previousRange(range);
  const columns = Object.entries(COLUMNS).flatMap(([key, column]) => [
    sql<number>`sum(case when day >= ${range.from} then ${sql.ref(column)} else 0 end)`.as(`c_${key}`),
    sql<number>`sum(case when day < ${range.from} then ${sql.ref(column)} else 0 end)`.as(`p_${key}`),
  ]);
  const rows = await db
    .selectFrom('client_call_days')
    .select('client_id')
    .select(columns)
    .where('day', '>=', before.from)
    .where('day', '<=', range.to)
    .groupBy('client_id')
    .execute();
  const out = new Map<string, { current: PeriodSums; previous: PeriodSums }>();
  for (const row of rows as Record<string, unknown>[]) {
    const read = (prefix: string) =>
      Object.fromEntries(
        Object.keys(COLUMNS).map((k) => [k, Number(row[`${prefix}${k}`] ?? 0)]),
      ) as unknown as PeriodSums;
    out.set(String(row.client_id), { current: read('c_'), previous: read('p_') });
  }
  return out;
}

const cents = (micros: number) => Math.round(micros / 10_000);
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

/** Adds figures whose cents are already rounded per client. */
function total(list: AnalyticsFigures[], sums: PeriodSums[]): AnalyticsFigures {
  const add = (pick: (f: AnalyticsFigures) => number) => list.reduce((n, f) => n + pick(f), 0);
  const raw = sums.reduce(
    (t, s) => ({
      calls: t.calls + s.calls,
      seconds: t.seconds + s.seconds,
      answered: t.answered + s.answered,
      failed: t.failed + s.failed,
    }),
    { calls: 0, seconds: 0, answered: 0, failed: 0 },
  );
  return figuresFromCents(
    raw,
    add((f) => f.revenueCents),
    add((f) => f.costCents),
  );
}

export async function portfolioAnalytics(
  db: Kysely<Database>,
  query: AnalyticsQuery,
  now: number,
): Promise<AdminAnalytics> {
  const range = analyticsRange(query, now);
  const before = previousRange(range);
  const onboarded = listPortfolioClients(db);
  const series = db
    .selectFrom('client_call_days')
    .innerJoin('clients', 'clients.id', 'client_call_days.client_id')
    .select('client_call_days.day')
    .select((eb) => [
      eb.fn.sum<number>('client_call_days.call_count').as('calls'),
      eb.fn.sum<number>('client_call_days.total_cost_micros').as('revenue'),
      eb.fn.sum<number>('client_call_days.total_provider_micros').as('cost'),
    ])
    .where('clients.onboarding_status', '=', 'active')
    .where('client_call_days.day', '>=', range.from)
    .where('client_call_days.day', '<=', range.to)
    .groupBy('client_call_days.day')
    .execute();
  const [clients, sums, days] = await Promise.all([onboarded, sumsByClient(db, range), series]);

  const rows: PortfolioClient[] = [];
  const current: { figures: AnalyticsFigures; sums: PeriodSums }[] = [];
  const previous: { figures: AnalyticsFigures; sums: PeriodSums }[] = [];
  for (const c of clients) {
    const s = sums.get(c.id) ?? { current: EMPTY, previous: EMPTY };
    const currentFigures = figures(s.current);
    const previousFigures = figures(s.previous);
    current.push({ figures: currentFigures, sums: s.current });
    previous.push({ figures: previousFigures, sums: s.previous });
    rows.push({
      clientId: c.id,
      name: clientNameOfRow(c),
      email: c.email,
      isActive: c.is_active === 1,
      ...currentFigures,
      changes: changes(currentFigures, previousFigures),
      lastCallAt:
        c.last_call_at === null || c.last_call_at === undefined
          ? null
          : new Date(Number(c.last_call_at)).toISOString(),
    });
  }
  rows.sort((a, b) => b.revenueCents - a.revenueCents || a.name.localeCompare(b.name));
  const totals = total(
    current.map((c) => c.figures),
    current.map((c) => c.sums),
  );
  const previousTotals = total(
    previous.map((c) => c.figures),
    previous.map((c) => c.sums),
  );

  const byDay = new Map(days.map((d) => [d.day, d]));
  const points: AdminAnalytics['series'] = [];
  for (let day = range.from; day <= range.to; day = shiftDate(day, 1)) {
    const d = byDay.get(day);
    points.push({
      date: day,
      calls: Number(d?.calls ?? 0),
      revenueCents: cents(Number(d?.revenue ?? 0)),
      costCents: cents(Number(d?.cost ?? 0)),
    });
  }
  return {
    range: { ...range, days: dayCount(range.from, range.to) },
    previous: before,
    totals,
    changes: changes(totals, previousTotals),
    series: points,
    clients: rows,
  };
}
