import { describe, expect, it } from 'vitest';
import {
  clientSampleCalls,
  createRng,
  DAY_MS,
  DEMO_PATHWAYS,
  dayIndexOf,
  demoCallsBetween,
  demoCallsForDay,
} from './sample-calls';

const NOON = Date.UTC(2025, 2, 5, 12, 0, 0);

describe('demo call generator', () => {
  it('is deterministic: the same day gives the same calls with the same ids', () => {
    const day = dayIndexOf(NOON);
    expect(demoCallsForDay(day)).toEqual(demoCallsForDay(day));
    expect(demoCallsForDay(day)[0].providerCallId).toBe(`demo-${day}-0`);
    expect(demoCallsForDay(day + 1)[0]).not.toEqual(demoCallsForDay(day)[0]);
  });

  it('makes 18 to 40 calls a day, inside that day, oldest first, with unique ids', () => {
    const first = dayIndexOf(NOON) - 90;
    for (let day = first; day < first + 90; day++) {
      const calls = demoCallsForDay(day);
      expect(calls.length).toBeGreaterThanOrEqual(18);
      expect(calls.length).toBeLessThanOrEqual(40);
      for (const call of calls) {
        expect(call.createdAt).toBeGreaterThanOrEqual(day * DAY_MS);
        expect(call.createdAt).toBeLessThan((day + 1) * DAY_MS);
      }
      expect(calls.map((c) => c.createdAt)).toEqual([...calls.map((c) => c.createdAt)].sort((a, b) => a - b));
      expect(new Set(calls.map((c) => c.providerCallId)).size).toBe(calls.length);
    }
  });

  it('mixes statuses, pathways, transcripts and recordings realistically', () => {
    const calls = demoCallsBetween(NOON - 30 * DAY_MS, NOON);
    const share = (pred: (c: (typeof calls)[number]) => boolean) => calls.filter(pred).length / calls.length;
    expect(share((c) => c.status === 'completed')).toBeGreaterThan(0.55);
    for (const status of ['failed', 'transferred', 'active'] as const)
      expect(share((c) => c.status === status)).toBeGreaterThan(0);
    for (const pathway of DEMO_PATHWAYS) expect(share((c) => c.pathway === pathway)).toBeGreaterThan(0.15);
    expect(share((c) => c.recordingUrl !== null)).toBeGreaterThan(0.3);
    // Only calls that connected have a recording.
    expect(
      calls.filter((c) => c.recordingUrl && c.status !== 'completed' && c.status !== 'transferred'),
    ).toEqual([]);
    for (const call of calls) {
      expect(call.source).toBe('sample');
      expect(call.transcript?.length).toBeGreaterThan(0);
      expect(call.transcript?.[0].role).toBe('agent');
      expect(call.fromNumber).toMatch(/^\+1\d{10}$/);
      expect(call.toNumber).toMatch(/^\+1\d{10}$/);
      if (call.status === 'failed') expect(call.durationSeconds).toBeLessThanOrEqual(15);
      else expect(call.durationSeconds).toBeGreaterThan(0);
    }
  });

  it('demoCallsBetween takes (from, to] and never returns a call from the future', () => {
    const calls = demoCallsBetween(NOON - DAY_MS, NOON);
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.every((c) => c.createdAt > NOON - DAY_MS && c.createdAt <= NOON)).toBe(true);
    const split = [
      ...demoCallsBetween(NOON - DAY_MS, NOON - 3_600_000),
      ...demoCallsBetween(NOON - 3_600_000, NOON),
    ];
    expect(split).toEqual(calls);
  });

  it('client samples: spread over the last 7 days, no recordings, ids unique per seed', () => {
    const a = clientSampleCalls(NOON, 25, 'seed-a');
    const b = clientSampleCalls(NOON, 25, 'seed-b');
    expect(a).toHaveLength(25);
    expect(a.every((c) => c.createdAt > NOON - 7 * DAY_MS && c.createdAt <= NOON)).toBe(true);
    expect(a.every((c) => c.recordingUrl === null)).toBe(true);
    const ids = new Set([...a, ...b].map((c) => c.providerCallId));
    expect(ids.size).toBe(50);
  });

  it('the PRNG is seedable and stays in [0, 1)', () => {
    const r1 = createRng(42);
    const r2 = createRng(42);
    const values = Array.from({ length: 1000 }, () => r1());
    expect(values).toEqual(Array.from({ length: 1000 }, () => r2()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});
