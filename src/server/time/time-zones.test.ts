import { describe, expect, it } from 'vitest';
import { localDate, localDateTime, localHour, localHourOf, startOfLocalDay } from './time-zones';

const formats = new Map<string, Intl.DateTimeFormat>();

/** What Intl itself says of an instant's wall clock in a zone: the answer the cache must give. */
function intlWallClock(ms: number, timeZone: string) {
  // One formatter per zone: building one per instant made the test take a minute under load.
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return parts;
}

// Zones with half- and quarter-hour offsets, a half-hour DST shift, and both hemispheres' DST.
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
];

// The days of 2026 on which one of these zones changes its clocks.
const DST_DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-11-01'];

describe('time zones', () => {
  it('gives the wall clock Intl gives, around every DST change of 2026 and at random instants', () => {
    const instants: number[] = [];
    // Every 7.5 minutes through the two days around each of 2026's DST changes in these zones, so
    // each quarter hour is read at its start and inside it, on both sides of every change.
    for (const day of DST_DAYS)
      for (let ms = Date.parse(day) - 86_400_000; ms < Date.parse(day) + 86_400_000; ms += 450_000)
        instants.push(ms);
    let seed = 41;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      instants.push(Date.UTC(2020, 0, 1) + (seed % (10 * 365 * 86_400)) * 1000 + 999);
    }
    // One assertion over all the instants, with what differed.
    const wrong: string[] = [];
    for (const zone of ZONES)
      for (const ms of instants) {
        const p = intlWallClock(ms, zone);
        const date = `${p.year}-${p.month}-${p.day}`;
        const want = [
          date,
          `${date}T${p.hour}:00`,
          Number(p.hour),
          `${date} ${p.hour}:${p.minute}:${p.second}`,
        ];
        const got = [
          localDate(ms, zone),
          localHour(ms, zone),
          localHourOf(ms, zone),
          localDateTime(ms, zone),
        ];
        if (want.some((w, i) => w !== got[i]))
          wrong.push(`${zone} ${ms}: ${got.join(' | ')} ≠ ${want.join(' | ')}`);
      }
    expect(wrong).toEqual([]);
  });

  it('finds the first instant of a local day, on DST change days too', () => {
    for (const zone of ZONES)
      for (const date of DST_DAYS) {
        const start = startOfLocalDay(date, zone);
        expect(localDate(start, zone)).toBe(date);
        expect(localDate(start - 1, zone)).not.toBe(date);
      }
  });
});
