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

/** Offset of the zone from UTC at an instant, in ms (positive east of Greenwich). */
function offsetAt(ms: number, timeZone: string): number {
  const parts = localParts(ms, timeZone);
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

function localParts(ms: number, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
}

/** YYYY-MM-DD of an instant in the zone. */
export function localDate(ms: number, timeZone: string): string {
  const parts = localParts(ms, timeZone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** YYYY-MM-DDTHH:00 of an instant in the zone: the local hour it falls in. */
export function localHour(ms: number, timeZone: string): string {
  const parts = localParts(ms, timeZone);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:00`;
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
  return Number(localParts(ms, timeZone).hour) % 24;
}

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const offsets = new Map<string, { quarter: number; offset: number }>();

/**
 * "YYYY-MM-DD HH:MM:SS" of an instant in the zone, for exports of many rows: the zone's offset is
 * looked up once per quarter hour (every zone changes offset on a quarter hour) and remembered
 * while consecutive rows stay in it, so a million rows cost a few thousand Intl lookups.
 */
export function localDateTime(ms: number, timeZone: string): string {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let cached = offsets.get(timeZone);
  if (cached?.quarter !== quarter) {
    cached = { quarter, offset: offsetAt(quarter * QUARTER_HOUR_MS, timeZone) };
    offsets.set(timeZone, cached);
  }
  return new Date(ms + cached.offset).toISOString().slice(0, 19).replace('T', ' ');
}
