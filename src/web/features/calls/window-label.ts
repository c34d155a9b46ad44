/**
 * What a calls view's window counts, said exactly: a preset is rolling, (now − N days,
 * now], so it is labelled with its first and last instants in the account's zone, never with
 * calendar dates it only partly covers; a custom range is whole local days.
 */
import { DATE_RANGE_DAYS, type DateRange } from '../../../contract/common';
import { rangeLabel } from './custom-range-label';

const DAY_MS = 24 * 60 * 60 * 1000;
const formats = new Map<string, Intl.DateTimeFormat>();

function instantFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZone,
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** "Nov 30, 3:05 PM" in the zone (a plain space before AM/PM, as text searches expect). */
function instantLabel(ms: number, timeZone: string): string {
  return instantFormat(timeZone)
    .format(new Date(ms))
    .replace(/\u202f/g, ' ');
}

/** A zone Intl knows, else UTC (an unknown zone must not break the page). */
function knownZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    instantFormat(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/**
 * "Nov 30, 3:05 PM – Dec 7, 3:05 PM (America/New_York)" for a preset at `now`;
 * "Dec 1 – Dec 7, 2026, whole days (America/New_York)" for a custom range.
 */
export function windowLabel(
  scope: { dateRange: DateRange; from: string; to: string },
  now: number,
  timeZone: string | undefined,
): string {
  const zone = knownZone(timeZone);
  if (scope.from !== '' && scope.to !== '')
    return `${rangeLabel(scope.from, scope.to)}, whole days (${zone})`;
  const start = now - DATE_RANGE_DAYS[scope.dateRange] * DAY_MS;
  return `${instantLabel(start, zone)} – ${instantLabel(now, zone)} (${zone})`;
}
