/**
 * Periods of days and each client's sums over them, read from the running totals of
 * `client_call_days` (calls/client-days.ts): a client's sums over a range are its total at the
 * range's last day less its total at the day before the range, whatever the number of calls or
 * days. The portfolio and the at-risk list read them.
 */
import type { Kysely } from 'kysely';
import { type AnalyticsQuery, dayCount } from '../../contract/agency';
import { DATE_RANGE_DAYS } from '../../contract/common';
import type { Database } from '../db/schema';
import { shiftDate } from '../time/time-zones';
import { type DaySums, emptySums, plus, RUNNING, sumsOf } from './client-days';

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

// Object.keys answers string[]; RUNNING has exactly DaySums' keys.
export const ALL_SUMS = Object.keys(RUNNING) as (keyof DaySums)[];

const EMPTY: PeriodSums = emptySums();

/** The days whose running totals give `range`'s sums and those of the period before it. */
export function periodPoints(range: DayRange): [start: string, middle: string, end: string] {
  return [shiftDate(previousRange(range).from, -1), shiftDate(range.from, -1), range.to];
}

export type RunningTotals = Map<string, Map<string, DaySums>>;

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
