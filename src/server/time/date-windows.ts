/**
 * The windows of time a request names (local days, exact instants, or a rolling range), and the
 * periods the reports cover (a month, a digest's days), defined once here: the dashboard, the
 * export, the PDF report and the digest e-mail all read them, so a period means the same
 * everywhere. Two kinds only: a rolling range (now − N days, now], and whole local days in the
 * client's zone (docs/design/dashboard.md, "One definition of each window").
 */
import type { DigestFrequency } from '../../contract/account';
import { DATE_RANGE_DAYS, type DateRange } from '../../contract/common';
import { shiftDate, startOfLocalDay } from './time-zones';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A window of calls: created_at in (from, to]. */
export interface CallWindow {
  from: number;
  to: number;
}

/** A custom range of local days, both included: from's local midnight to the end of to's day. */
export function localDaysWindow(fromDay: string, toDay: string, timeZone: string): CallWindow {
  return {
    from: startOfLocalDay(fromDay, timeZone) - 1,
    to: startOfLocalDay(shiftDate(toDay, 1), timeZone) - 1,
  };
}

/** The ways a request names its window: local days, exact instants, or a rolling range. */
export interface WindowQuery {
  dateRange: DateRange;
  startDate?: number;
  endDate?: number;
  from?: string;
  to?: string;
}

/**
 * The window a stats or chart request names: its custom days from..to in the client's zone, else
 * its startDate..endDate (both included, as the call log reads them), else DESIGN's rolling
 * window (now − N days, now].
 */
export function requestedWindow(query: WindowQuery, now: number, timeZone: string): CallWindow {
  if (query.from !== undefined && query.to !== undefined)
    return localDaysWindow(query.from, query.to, timeZone);
  if (query.startDate !== undefined && query.endDate !== undefined)
    return { from: query.startDate - 1, to: query.endDate };
  return rollingWindow(query.dateRange, now);
}

/** DESIGN's rolling window of a range: (now − N days, now]. The stats and the call log read it alike. */
export function rollingWindow(range: DateRange, now: number): CallWindow {
  return { from: now - DATE_RANGE_DAYS[range] * DAY_MS, to: now };
}

/** Local days, both included, "YYYY-MM-DD". */
export interface LocalDays {
  from: string;
  to: string;
}

/** The last day of a month "YYYY-MM", "YYYY-MM-DD". */
function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** A month's report: its 1st to its last day, or to `today` (local) for the month under way. */
export function monthDays(month: string, today: string): LocalDays {
  const last = lastDayOfMonth(month);
  return { from: `${month}-01`, to: last < today ? last : today };
}

/** Monday is 1 … Sunday 7, of a local date. */
const isoWeekday = (date: string) => {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};

/** The digest due on a local date, if any: its kind and the local days it covers (yesterday, or last Monday to Sunday). */
export function digestDue(
  frequency: DigestFrequency,
  today: string,
): ({ kind: 'daily' | 'weekly' } & LocalDays) | null {
  if (frequency === 'daily') return { kind: 'daily', from: shiftDate(today, -1), to: shiftDate(today, -1) };
  if (frequency === 'weekly' && isoWeekday(today) === 1)
    return { kind: 'weekly', from: shiftDate(today, -7), to: shiftDate(today, -1) };
  return null;
}

/** Last month's first and last local days, when today is the 1st. */
export function reportMonthDue(today: string): ({ month: string } & LocalDays) | null {
  if (!today.endsWith('-01')) return null;
  const to = shiftDate(today, -1);
  return { month: to.slice(0, 7), ...monthDays(to.slice(0, 7), to) };
}
