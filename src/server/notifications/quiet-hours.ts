/**
 * Quiet hours: texts that would arrive at night, in the client's time zone, wait for
 * the morning. E-mail and webhooks are not held: they do not wake anyone.
 */
import { localDate, localHourOf, localInstant, shiftDate } from '../time/time-zones';

export interface QuietHours {
  /** Local hour the quiet starts (inclusive), 0–23. */
  start: number;
  /** Local hour it ends (exclusive), 0–23. */
  end: number;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { start: 21, end: 8 };

/** `now` when outside quiet hours, else the instant they end. */
export function endOfQuietHours(
  now: number,
  timeZone: string,
  quiet: QuietHours = DEFAULT_QUIET_HOURS,
): number {
  if (quiet.start === quiet.end) return now;
  const hour = localHourOf(now, timeZone);
  const overnight = quiet.start > quiet.end;
  const inside = overnight
    ? hour >= quiet.start || hour < quiet.end
    : hour >= quiet.start && hour < quiet.end;
  if (!inside) return now;
  const today = localDate(now, timeZone);
  // Late evening of an overnight quiet: it ends tomorrow morning.
  const endDate = overnight && hour >= quiet.start ? shiftDate(today, 1) : today;
  return localInstant(endDate, quiet.end, timeZone);
}
