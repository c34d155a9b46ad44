import { describe, expect, it } from 'vitest';
import { clockOf, formatCalendarDate, formatLocalDate, formatLocalDateTime, zoneName } from './local-time';

// 2026-12-07 19:05 UTC: 14:05 in New York (EST), 20:05 in Berlin (CET).
const T = Date.UTC(2026, 11, 7, 19, 5);

describe('client times', () => {
  it('writes an instant in the client’s zone and locale, naming the zone', () => {
    expect(formatLocalDateTime(T, clockOf({ timezone: 'America/New_York', country: 'US' }))).toBe(
      '12/7/2026, 2:05 PM EST',
    );
    expect(formatLocalDateTime(T, clockOf({ timezone: 'Europe/Berlin', country: 'Germany' }))).toBe(
      '7.12.2026, 20:05 GMT+1',
    );
    expect(formatLocalDateTime(T, clockOf({ timezone: 'Europe/London', country: 'UK' }))).toBe(
      '07/12/2026, 19:05 GMT',
    );
    expect(formatLocalDateTime(T, clockOf({ timezone: 'UTC', country: null }))).toBe(
      '12/7/2026, 7:05 PM UTC',
    );
  });

  it('follows daylight saving time in the name', () => {
    const july = Date.UTC(2026, 6, 1, 12);
    expect(zoneName(july, 'America/New_York', 'en-US')).toBe('EDT');
    expect(zoneName(july, 'Europe/London', 'en-GB')).toBe('BST');
    expect(zoneName(july, 'Europe/Berlin', 'de-DE')).toBe('GMT+2');
  });

  it('writes dates of instants and calendar days in the locale, never shifting a calendar day', () => {
    expect(formatLocalDate(T, { timeZone: 'Asia/Tokyo', locale: 'en-GB' })).toBe('08/12/2026');
    expect(formatCalendarDate('2026-03-05', 'en-US')).toBe('3/5/2026');
    expect(formatCalendarDate('2026-03-05', 'de-DE')).toBe('5.3.2026');
    expect(formatCalendarDate('not a date', 'en-US')).toBe('not a date');
  });
});
