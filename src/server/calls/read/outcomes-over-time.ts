/**
 * Calls per outcome per local day (or hour) over a window, for the stacked outcomes chart. Whole
 * days come from the daily outcome rollups in one query, hours from the 15-minute outcome buckets,
 * and the partial day or bucket at each edge from the window totals, so the points add up to the
 * outcome summary of the same window.
 */
import type { Kysely } from 'kysely';
import type { ChartQuery } from '../../../contract/calls';
import type { OutcomePoint } from '../../../contract/outcomes';
import type { Database } from '../../db/schema';
import { type CallWindow, requestedWindow } from '../../time/date-windows';
import { localDate, localHour, shiftDate, startOfLocalDay } from '../../time/time-zones';
import { BUCKET_MS } from '../write/rollups';
import { filterCondition, totalsByStatus, type WindowFilter } from './call-queries';

type Client = { id: string; timezone: string };
type Counts = Map<string, Map<string, number>>;

function add(counts: Counts, period: string, outcome: string, n: number) {
  if (n === 0) return;
  const row = counts.get(period) ?? new Map<string, number>();
  row.set(outcome, (row.get(outcome) ?? 0) + n);
  counts.set(period, row);
}

async function addWindowTotals(
  db: Kysely<Database>,
  client: Client,
  counts: Counts,
  period: string,
  from: number,
  to: number,
  filter: WindowFilter,
) {
  if (from >= to) return;
  for (const t of await totalsByStatus(db, client, from, to, filter, 'outcome'))
    add(counts, period, t.status, t.count);
}

async function perDay(db: Kysely<Database>, client: Client, window: CallWindow, filter: WindowFilter) {
  const tz = client.timezone;
  const dates: string[] = [];
  for (let day = localDate(window.from + 1, tz); day <= localDate(window.to, tz); day = shiftDate(day, 1))
    dates.push(day);
  const isWhole = (date: string) =>
    startOfLocalDay(date, tz) > window.from && startOfLocalDay(shiftDate(date, 1), tz) - 1 <= window.to;
  const whole = dates.filter(isWhole);
  const counts: Counts = new Map();
  await Promise.all([
    whole.length > 0 &&
      db
        .selectFrom('call_outcome_rollups_daily')
        .select(['day', 'outcome'])
        .select((eb) => eb.fn.sum<number>('call_count').as('count'))
        .where('client_id', '=', client.id)
        .where('day', '>=', whole[0])
        .where('day', '<=', whole[whole.length - 1])
        .where(filterCondition(filter))
        .groupBy(['day', 'outcome'])
        .execute()
        .then((rows) => {
          for (const r of rows) add(counts, r.day, r.outcome, Number(r.count));
        }),
    ...dates
      .filter((d) => !isWhole(d))
      .map((date) => {
        const from = Math.max(window.from, startOfLocalDay(date, tz) - 1);
        const to = Math.min(window.to, startOfLocalDay(shiftDate(date, 1), tz) - 1);
        return addWindowTotals(db, client, counts, date, from, to, filter);
      }),
  ]);
  return { periods: dates, counts };
}

async function perHour(db: Kysely<Database>, client: Client, window: CallWindow, filter: WindowFilter) {
  const tz = client.timezone;
  const fullFrom = Math.ceil((window.from + 1) / BUCKET_MS) * BUCKET_MS;
  const fullTo = Math.floor(window.to / BUCKET_MS) * BUCKET_MS;
  const counts: Counts = new Map();
  const hasFull = fullFrom < fullTo;
  await Promise.all([
    hasFull &&
      db
        .selectFrom('call_outcome_rollups')
        .select(['bucket_start', 'outcome'])
        .select((eb) => eb.fn.sum<number>('call_count').as('count'))
        .where('client_id', '=', client.id)
        .where('bucket_start', '>=', fullFrom)
        .where('bucket_start', '<', fullTo)
        .where(filterCondition(filter))
        .groupBy(['bucket_start', 'outcome'])
        .execute()
        .then((rows) => {
          for (const r of rows)
            add(counts, localHour(Number(r.bucket_start), tz), r.outcome, Number(r.count));
        }),
    // The partial buckets at the edges lie inside one local hour each (zones move by quarter hours).
    ...(hasFull
      ? [
          addWindowTotals(
            db,
            client,
            counts,
            localHour(window.from + 1, tz),
            window.from,
            fullFrom - 1,
            filter,
          ),
          addWindowTotals(db, client, counts, localHour(window.to, tz), fullTo - 1, window.to, filter),
        ]
      : [
          addWindowTotals(db, client, counts, localHour(window.from + 1, tz), window.from, window.to, filter),
        ]),
  ]);
  const hours: string[] = [];
  for (let at = window.from + 1; ; at = Math.min(at + BUCKET_MS, window.to)) {
    const hour = localHour(at, tz);
    if (hours[hours.length - 1] !== hour) hours.push(hour);
    if (at === window.to) break;
  }
  return { periods: hours, counts };
}

/** GET …/outcomes-over-time: the chart query's window and pathway, per day or per hour. */
export async function outcomesOverTime(
  db: Kysely<Database>,
  client: Client,
  query: ChartQuery,
  now: number,
): Promise<OutcomePoint[]> {
  const window = requestedWindow(query, now, client.timezone);
  const filter = { pathway: query.pathway };
  const { periods, counts } =
    query.interval === 'hour'
      ? await perHour(db, client, window, filter)
      : await perDay(db, client, window, filter);
  return periods.map((date) => ({ date, counts: Object.fromEntries(counts.get(date) ?? []) }));
}
