/** Local calendar days in an IANA time zone, with nothing but Intl (DST-correct). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Offset of the zone from UTC at an instant, in ms (positive east of Greenwich), asked of Intl. */
function intlOffsetAt(ms: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const asUtc = Date.UTC(
    +parts.year,
    +parts.month - 1,
    +parts.day,
    +parts.hour,
    +parts.minute,
    +parts.second,
  );
  return asUtc - (ms - (ms % 1000));
}

const QUARTER_HOUR_MS = 15 * 60 * 1000;
/** Quarter hours remembered, all zones together, before the memory starts again (a few MB). */
const QUARTERS_KEPT = 50_000;
const offsetsByZone = new Map<string, Map<number, number>>();
let quartersKept = 0;

/**
 * The zone's offset at an instant. Every zone changes its offset on a quarter hour, so the offset
 * of a quarter hour is asked of Intl once (a few microseconds) and remembered: a chart of 60 days
 * asks for a few hundred instants in the same few quarters, an export for a million.
 */
function offsetAt(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = offsetsByZone.get(timeZone)?.get(quarter);
  if (offset === undefined) {
    offset = intlOffsetAt(quarter * QUARTER_HOUR_MS, timeZone);
    if (quartersKept >= QUARTERS_KEPT) {
      offsetsByZone.clear();
      quartersKept = 0;
    }
    let offsets = offsetsByZone.get(timeZone);
    if (!offsets) {
      offsets = new Map();
      offsetsByZone.set(timeZone, offsets);
    }
    offsets.set(quarter, offset);
    quartersKept++;
  }
  return offset;
}

/** The instant's wall clock in the zone, as an ISO string ("YYYY-MM-DDTHH:MM:SS.sssZ" of local time). */
function localIso(ms: number, timeZone: string): string {
  return new Date(ms + offsetAt(ms, timeZone)).toISOString();
}

/** YYYY-MM-DD of an instant in the zone. */
export function localDate(ms: number, timeZone: string): string {
  return localIso(ms, timeZone).slice(0, 10);
}

/** YYYY-MM-DDTHH:00 of an instant in the zone: the local hour it falls in. */
export function localHour(ms: number, timeZone: string): string {
  return `${localIso(ms, timeZone).slice(0, 13)}:00`;
}

/** The instant a local calendar day starts in the zone. */
export function startOfLocalDay(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const midnightUtc = Date.UTC(y, m - 1, d);
  let guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  // Across a DST change the offset at the guess differs from the one at UTC midnight.
  guess = midnightUtc - offsetAt(guess, timeZone);
  return guess;
}

/** The N local dates ending with today (oldest first). */
export function lastLocalDates(now: number, days: number, timeZone: string): string[] {
  const today = localDate(now, timeZone);
  const [y, m, d] = today.split('-').map(Number);
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const t = new Date(Date.UTC(y, m - 1, d - i));
    out.push(t.toISOString().slice(0, 10));
  }
  return out;
}

/** The calendar date `days` after (or before) a YYYY-MM-DD date. */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The instant a local date's hour (0–23) starts in the zone (a skipped DST hour maps past the gap). */
export function localInstant(date: string, hour: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const wallUtc = Date.UTC(y, m - 1, d, hour);
  const guess = wallUtc - offsetAt(wallUtc, timeZone);
  return wallUtc - offsetAt(guess, timeZone);
}

/** The local hour (0–23) of an instant in the zone. */
export function localHourOf(ms: number, timeZone: string): number {
  return new Date(ms + offsetAt(ms, timeZone)).getUTCHours();
}

/** "YYYY-MM-DD HH:MM:SS" of an instant in the zone, for exports of many rows. */
export function localDateTime(ms: number, timeZone: string): string {
  return localIso(ms, timeZone).slice(0, 19).replace('T', ' ');
}
