import { describe, expect, it } from 'vitest';
import { distributionRows, precisionRows, worstGroups } from './quality-summary-rows';

describe('quality summary rows', () => {
  it('counts calls per precision with their share and what each means', () => {
    const rows = precisionRows({ word: 1, message: 1, segment: 2, approx: 0 });
    expect(rows.map((r) => [r.label, r.calls, r.percent])).toEqual([
      ['Word timing', 1, 25],
      ['Message timing', 1, 25],
      ['Segment timing', 2, 50],
      ['Order only', 0, 0],
    ]);
    expect(rows[3]?.explanation).toMatch(/cannot be measured/);
  });

  it('buckets the grid values of each worst-call metric into fixed ranges', () => {
    expect(
      distributionRows('responseLatencyP90Ms', [
        { value: 950, calls: 2 },
        { value: 1000, calls: 1 },
        { value: 3500, calls: 1 },
        { value: 6000, calls: 4 },
      ]).map((r) => [r.label, r.calls, r.percent]),
    ).toEqual([
      ['Under 1 s', 2, 25],
      ['1–2 s', 1, 13],
      ['2–3.5 s', 0, 0],
      ['3.5–5 s', 1, 13],
      ['5–10 s', 4, 50],
      ['10 s or more', 0, 0],
    ]);
    expect(
      distributionRows('interruptionsCaller', [
        { value: 0, calls: 5 },
        { value: 4, calls: 1 },
        { value: 7, calls: 1 },
      ]).map((r) => r.calls),
    ).toEqual([5, 0, 0, 1, 1]);
    expect(
      distributionRows('deadAirLongestMs', [
        { value: 0, calls: 3 },
        { value: 6000, calls: 1 },
      ])[2],
    ).toEqual({
      label: '5–10 s',
      calls: 1,
      percent: 25,
    });
    expect(distributionRows('deadAirLongestMs', undefined).every((r) => r.calls === 0)).toBe(true);
  });

  it('groups the worst calls per metric, each with the moment the drawer opens at', () => {
    const groups = worstGroups([
      {
        callId: 'a',
        metric: 'responseLatencyP90Ms',
        value: 6000,
        atMs: 22_000,
        createdAt: '2026-06-10T10:00:00Z',
      },
      {
        callId: 'c',
        metric: 'responseLatencyP90Ms',
        value: 2500,
        atMs: null,
        createdAt: '2026-06-10T09:00:00Z',
      },
      {
        callId: 'a',
        metric: 'interruptionsCaller',
        value: 1,
        atMs: 11_500,
        createdAt: '2026-06-10T10:00:00Z',
      },
    ]);
    expect(groups.map((g) => [g.title, g.rows.length])).toEqual([
      ['Slowest answers', 2],
      ['Most interruptions', 1],
      ['Longest dead air', 0],
    ]);
    expect(groups[0]?.rows[0]).toMatchObject({
      value: '1 in 10 answers took 6.0 s or more',
      seconds: 22,
      at: '0:22',
    });
    expect(groups[0]?.rows[1]).toMatchObject({
      value: '1 in 10 answers took 2.5 s or more',
      seconds: null,
      at: null,
    });
    expect(groups[1]?.rows[0]).toMatchObject({ value: '1 interruption', seconds: 11, at: '0:11' });
  });
});
