import { describe, expect, it } from 'vitest';
import type { QualityMoment } from '../../../../contract/quality';
import { transcriptMarks } from './transcript-marks';

// The hand-computed call of src/server/quality/measure.test.ts: its lines' starts and its moments.
const STARTS = [0, 3500, 7200, 11_500, 17_500, 19_900, 28_000, 30_500];
const MOMENTS: QualityMoment[] = [
  { kind: 'caller_interrupted', atMs: 11_500, durationMs: 500 },
  { kind: 'slow_turn', atMs: 13_000, durationMs: 4500 },
  { kind: 'dead_air', atMs: 13_000, durationMs: 4500 },
  { kind: 'slow_turn', atMs: 22_000, durationMs: 6000 },
  { kind: 'dead_air', atMs: 22_000, durationMs: 6000 },
];

describe('transcript marks', () => {
  it('marks the line that cut in, and the line that ended each wait', () => {
    const marks = transcriptMarks(STARTS, MOMENTS);
    expect([...marks.keys()]).toEqual([3, 4, 6]);
    expect(marks.get(3)?.map((m) => m.label)).toEqual(['Caller interrupted']);
    expect(marks.get(4)?.map((m) => m.label)).toEqual(['Slow answer · 4.5 s', 'Dead air · 4.5 s']);
    expect(marks.get(6)?.map((m) => m.description)).toEqual([
      'Slow answer: the agent started 6.0 s after the caller stopped.',
      'Dead air: nobody spoke for 6.0 s before this line.',
    ]);
    expect(marks.get(3)?.[0]?.description).toBe('Interruption: the caller spoke over the agent for 0.5 s.');
  });

  it('takes the next line when none starts at the moment, and drops a moment past the last line', () => {
    const marks = transcriptMarks(
      [0, null, 5000],
      [
        { kind: 'agent_interrupted', atMs: 4000, durationMs: 400 },
        { kind: 'dead_air', atMs: 9000, durationMs: 3000 },
      ],
    );
    expect([...marks.entries()].map(([i, m]) => [i, m.map((x) => x.kind)])).toEqual([
      [2, ['agent_interrupted']],
    ]);
  });
});
