import { describe, expect, it } from 'vitest';
import { endOfQuietHours } from './quiet-hours';

describe('quiet hours', () => {
  it('holds a text sent at night until 08:00 local, in the client zone', () => {
    // 23:30 in New York (EST, UTC-5) → 08:00 the next morning = 13:00 UTC.
    const late = Date.UTC(2026, 0, 15, 4, 30);
    expect(new Date(endOfQuietHours(late, 'America/New_York')).toISOString()).toBe(
      '2026-01-15T13:00:00.000Z',
    );
    // 03:00 local → 08:00 the same day.
    const small = Date.UTC(2026, 0, 15, 8, 0);
    expect(new Date(endOfQuietHours(small, 'America/New_York')).toISOString()).toBe(
      '2026-01-15T13:00:00.000Z',
    );
    // Daytime: at once.
    const noon = Date.UTC(2026, 0, 15, 17, 0);
    expect(endOfQuietHours(noon, 'America/New_York')).toBe(noon);
  });

  it('follows daylight saving time: the morning after the spring change is 08:00 EDT', () => {
    // 22:00 EST on Saturday 7 March 2026; clocks go forward that night.
    const night = Date.UTC(2026, 2, 8, 3, 0);
    expect(new Date(endOfQuietHours(night, 'America/New_York')).toISOString()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
  });

  it('handles quiet hours within a day and none at all', () => {
    const at = Date.UTC(2026, 5, 1, 13, 0); // 13:00 UTC
    expect(new Date(endOfQuietHours(at, 'UTC', { start: 12, end: 14 })).toISOString()).toBe(
      '2026-06-01T14:00:00.000Z',
    );
    expect(endOfQuietHours(at, 'UTC', { start: 0, end: 0 })).toBe(at);
  });
});
