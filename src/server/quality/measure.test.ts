import { describe, expect, it } from 'vitest';
import { type Conversation, measureConversation, percentile, type TimedLine } from './measure';

// A 60-second call whose figures are worked out by hand in docs/design/conversation-quality.md.
const lines: TimedLine[] = [
  { speaker: 'agent', startMs: 0, endMs: 3000 },
  { speaker: 'caller', startMs: 3500, endMs: 6000 },
  { speaker: 'agent', startMs: 7200, endMs: 12000 }, // answers in 1,200 ms
  { speaker: 'caller', startMs: 11500, endMs: 13000 }, // talks over the agent for 500 ms
  { speaker: 'agent', startMs: 17500, endMs: 20000 }, // 4,500 ms to answer: slow, and dead air
  { speaker: 'caller', startMs: 19900, endMs: 22000 }, // 100 ms overlap: a backchannel, not an interruption
  { speaker: 'agent', startMs: 28000, endMs: 30000 }, // 6,000 ms of silence first
  { speaker: 'agent', startMs: 30500, endMs: 31000 },
];

const conversation = (over: Partial<Conversation> = {}): Conversation => ({
  precision: 'segment',
  lines,
  durationMs: 60_000,
  endedBy: 'caller',
  escalated: false,
  sentiment: null,
  ...over,
});

describe('measureConversation', () => {
  it('gives the hand-computed figures of a timed call', () => {
    expect(measureConversation(conversation())).toEqual({
      precision: 'segment',
      turns: 7,
      responseLatencyMs: { p50: 4500, p90: 6000, max: 6000, count: 3 },
      interruptions: { caller: 1, agent: 0 },
      deadAir: { count: 2, longestMs: 6000 },
      silencePct: 10,
      agentTalkPct: 21.3,
      talkListenRatio: 2.1,
      longestMonologueMs: 4800,
      endedBy: 'caller',
      escalated: false,
      sentiment: null,
      moments: [
        { kind: 'caller_interrupted', atMs: 11500, durationMs: 500 },
        { kind: 'slow_turn', atMs: 13000, durationMs: 4500 },
        { kind: 'dead_air', atMs: 13000, durationMs: 4500 },
        { kind: 'slow_turn', atMs: 22000, durationMs: 6000 },
        { kind: 'dead_air', atMs: 22000, durationMs: 6000 },
      ],
    });
  });

  it('counts an agent talking over the caller as the agent interrupting', () => {
    const q = measureConversation(
      conversation({
        lines: [
          { speaker: 'caller', startMs: 0, endMs: 4000 },
          { speaker: 'agent', startMs: 3000, endMs: 5000 },
        ],
      }),
    );
    expect(q?.interruptions).toEqual({ caller: 0, agent: 1 });
    // Starting before the caller finished is not a (negative) latency.
    expect(q?.responseLatencyMs).toEqual({ p50: null, p90: null, max: null, count: 0 });
  });

  it('gives an approx call its turns and ended-by only', () => {
    const q = measureConversation(
      conversation({
        precision: 'approx',
        lines: lines.map((l) => ({ speaker: l.speaker })),
        endedBy: 'agent',
      }),
    );
    expect(q).toMatchObject({
      precision: 'approx',
      turns: 7,
      responseLatencyMs: null,
      interruptions: null,
      deadAir: null,
      silencePct: null,
      agentTalkPct: null,
      talkListenRatio: null,
      longestMonologueMs: null,
      endedBy: 'agent',
      moments: [],
    });
  });

  it('says approx rather than guess when a timed line lacks its times', () => {
    const broken = [...lines.slice(0, 3), { speaker: 'caller' as const, startMs: 13000 }];
    expect(measureConversation(conversation({ lines: broken }))?.precision).toBe('approx');
  });

  it('has nothing to measure without lines', () => {
    expect(measureConversation(conversation({ lines: [] }))).toBeNull();
  });
});

describe('percentile (nearest rank)', () => {
  it('takes the value at the rank', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.9)).toBe(4);
    expect(percentile([], 0.5)).toBeNull();
  });
});
