import { describe, expect, it } from 'vitest';
import type { CallQuality } from '../../../../contract/quality';
import { APPROX_NOTE, NOTHING_TO_MEASURE_NOTE, callQualityFigures } from './call-quality-figures';

// The hand-computed 60-second call of src/server/quality/measure.test.ts.
const MEASURED: CallQuality = {
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
  moments: [],
};

const figuresOf = (q: CallQuality) =>
  Object.fromEntries(callQualityFigures(q).figures.map((f) => [f.key, f.value]));

describe('a call’s quality figures', () => {
  it('lists the hand-computed figures as the drawer shows them', () => {
    expect(figuresOf(MEASURED)).toEqual({
      precision: 'Segment timing',
      turns: '7',
      'latency-p50': '4.5 s',
      'latency-p90': '6.0 s',
      'latency-max': '6.0 s',
      'interruptions-caller': '1 time',
      'interruptions-agent': '0 times',
      'dead-air-count': '2 times',
      'dead-air-longest': '6.0 s',
      silence: '10%',
      'agent-talk': '21.3%',
      'talk-listen': '2.10',
      monologue: '4.8 s',
      'ended-by': 'The caller',
      escalated: 'No',
      sentiment: 'Not given',
    });
    expect(callQualityFigures(MEASURED).note).toBeNull();
  });

  it('shows — for what an order-only call cannot say, with the reason', () => {
    const approx: CallQuality = {
      ...MEASURED,
      precision: 'approx',
      turns: 3,
      responseLatencyMs: null,
      interruptions: null,
      deadAir: null,
      silencePct: null,
      agentTalkPct: null,
      talkListenRatio: null,
      longestMonologueMs: null,
      endedBy: 'agent',
      escalated: true,
      sentiment: 'Positive',
    };
    const values = figuresOf(approx);
    expect(values).toMatchObject({
      precision: 'Order only',
      turns: '3',
      'latency-p90': '—',
      'interruptions-caller': '—',
      'dead-air-longest': '—',
      'talk-listen': '—',
      'ended-by': 'The AI agent',
      escalated: 'Yes',
      sentiment: 'Positive',
    });
    expect(callQualityFigures(approx).note).toBe(APPROX_NOTE);
  });

  it('says when a timed call had nothing to measure for a figure', () => {
    const { note } = callQualityFigures({ ...MEASURED, talkListenRatio: null });
    expect(note).toBe(NOTHING_TO_MEASURE_NOTE);
  });
});
