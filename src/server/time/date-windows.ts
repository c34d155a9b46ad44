/**
 * The windows of time a request names (local days, exact instants, or a rolling range), shared by
 * the call log, stats, charts, outcomes and reports so a range means the same everywhere.
 */
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
