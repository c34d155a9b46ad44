/**
 * Times as a client reads them in what it receives (e-mails, the monthly PDF, exports): in its
 * time zone, in its locale's date format, naming the zone by its short name ("EST", "GMT+1",
 * "UTC"). The one formatter for all of them; numeric dates only, so an English e-mail never holds
 * a month name in another language. The browser's own screens keep format.ts (SPEC's US English).
 */
import { localeOf } from './regional';

/** What a client's times are written with. */
export interface ClientClock {
  timeZone: string;
  locale: string;
}

/** The clock of a client row or view: its zone, and the locale its country gives. */
export function clockOf(client: { timezone: string; country?: string | null }): ClientClock {
  return { timeZone: client.timezone, locale: localeOf(client.country) };
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

// Newer ICU puts a narrow no-break space before AM/PM; searches and tests expect a plain one.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/**
 * The zone's short name at an instant: "EST" or "EDT" for New York, "GMT"/"BST" for London in
 * British English, "GMT+1" where the language has no abbreviation. Asked in the locale when it is
 * English (the texts around it are), else in US English.
 */
export function zoneName(ms: number, timeZone: string, locale: string): string {
  const nameLocale = locale.toLowerCase().startsWith('en') ? locale : 'en-US';
  const part = format(nameLocale, { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/**
 * The zone's names over a period: "EST", or "EDT/EST" when daylight saving time starts or ends
 * inside it, so a month's report never names one offset for times that had two.
 */
export function zoneNamesBetween(fromMs: number, toMs: number, clock: ClientClock): string {
  const first = zoneName(fromMs, clock.timeZone, clock.locale);
  const last = zoneName(toMs, clock.timeZone, clock.locale);
  return first === last ? first : `${first}/${last}`;
}

/** An instant's date and time with its zone: "12/7/2026, 2:05 PM EST", "07.12.2026, 14:05 GMT+1". */
export function formatLocalDateTime(ms: number, clock: ClientClock): string {
  const text = format(clock.locale, {
    timeZone: clock.timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(ms));
  return `${plain(text)} ${zoneName(ms, clock.timeZone, clock.locale)}`;
}

/** An instant's date in the zone: "12/7/2026", "07/12/2026", "7.12.2026". */
export function formatLocalDate(ms: number, clock: ClientClock): string {
  return plain(
    format(clock.locale, {
      timeZone: clock.timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    }).format(new Date(ms)),
  );
}

function calendarDay(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(day.getTime()) ? null : day;
}

/** A calendar day "YYYY-MM-DD" (already local) in the locale's format; never shifted by a zone. */
export function formatCalendarDate(date: string, locale: string): string {
  const day = calendarDay(date);
  if (!day) return date;
  return plain(
    format(locale, { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).format(day),
  );
}
