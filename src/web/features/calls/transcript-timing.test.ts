import { describe, expect, it } from 'vitest';
import { activeLineAt, formatClock, momentLink, readCallLink, timeTranscript } from './transcript-timing';

const line = (text: string, timestamp?: string) => ({
  speaker: 'Caller' as const,
  text,
  ...(timestamp ? { timestamp } : {}),
});

describe('transcript timing', () => {
  it("places Bland's per-line instants from the first line on", () => {
    const timed = timeTranscript(
      [
        line('Hello', '2026-03-05T14:00:01.000Z'),
        line('Hi', '2026-03-05T14:00:04.500Z'),
        line('Bye', '2026-03-05T14:00:30Z'),
      ],
      20,
    );
    expect(timed.estimated).toBe(false);
    // Past the recording's end is clamped to its end.
    expect(timed.lines.map((l) => l.start)).toEqual([0, 3.5, 20]);
  });

  it('reads seconds offsets as sent', () => {
    const timed = timeTranscript([line('a', '0'), line('b', '12.5')], 60);
    expect(timed.lines.map((l) => l.start)).toEqual([0, 12.5]);
  });

  it('takes the lines’ measured starts in ms over any timestamp', () => {
    const timed = timeTranscript(
      [
        { ...line('Hello', '2026-03-05T14:00:01.000Z'), startMs: 0 },
        { ...line('Hi', '2026-03-05T14:00:04.500Z'), startMs: 3500 },
        { ...line('Bye', '2026-03-05T14:00:30Z'), startMs: 28_000 },
      ],
      60,
    );
    expect(timed.estimated).toBe(false);
    expect(timed.lines.map((l) => l.start)).toEqual([0, 3.5, 28]);
  });

  it('spreads lines without times over the call by their length, marked estimated', () => {
    const timed = timeTranscript([line('aaaa'), line('bbbb'), line('cccccccc')], 32);
    expect(timed.estimated).toBe(true);
    expect(timed.lines.map((l) => l.start)).toEqual([0, 8, 16]);
  });

  it('finds the line being spoken', () => {
    const { lines } = timeTranscript([line('a', '2'), line('b', '5'), line('c', '9')], 20);
    expect(activeLineAt(lines, 0)).toBe(-1);
    expect(activeLineAt(lines, 2)).toBe(0);
    expect(activeLineAt(lines, 8.9)).toBe(1);
    expect(activeLineAt(lines, 15)).toBe(2);
  });

  it('builds and reads links to a moment of a call', () => {
    const link = momentLink('https://app.example', '/dashboard', 'call 1', 83.7);
    expect(link).toBe('https://app.example/dashboard?call=call+1&t=83');
    expect(readCallLink(new URL(link).search)).toEqual({ callId: 'call 1', seconds: 83 });
    expect(readCallLink('?call=abc&t=soon')).toEqual({ callId: 'abc', seconds: null });
    expect(readCallLink('')).toEqual({ callId: null, seconds: null });
    expect(formatClock(83.7)).toBe('1:23');
  });
});
