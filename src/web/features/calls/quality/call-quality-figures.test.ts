import { describe, expect, it } from 'vitest';
import type { CallQuality } from '../../../../contract/quality';
import { DEFAULT_QUALITY_THRESHOLDS } from '../../../../contract/quality-metrics';
import {
  APPROX_NOTE,
  callQualityFigures,
  NOTHING_TO_MEASURE_NOTE,
  qualityLine,
  qualityLineText,
  talkComparison,
} from './call-quality-figures';

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

const APPROX: CallQuality = {
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

const figuresOf = (q: CallQuality) =>
  Object.fromEntries(callQualityFigures(q).figures.map((f) => [f.key, f.value]));

describe('a call’s quality figures (the drawer’s details)', () => {
  it('lists the hand-computed figures in plain words, without a sentiment nobody gave', () => {
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
      'agent-talk': '21.3% of the time',
      'talk-listen': '2.1× as long as the caller',
      monologue: '4.8 s',
      'ended-by': 'The caller',
      escalated: 'No',
    });
    expect(callQualityFigures(MEASURED).note).toBeNull();
    const labels = callQualityFigures(MEASURED).figures.map((f) => f.label);
    expect(labels.join(' ')).not.toMatch(/p90|p50|median|ratio|talk\/listen/i);
  });

  it('never shows a row of —: an order-only call lists what its timing allows, and says why', () => {
    const values = figuresOf(APPROX);
    expect(values).toEqual({
      precision: 'Order only',
      turns: '3',
      'ended-by': 'The AI agent',
      escalated: 'Yes',
      sentiment: 'Positive',
    });
    expect(Object.values(values)).not.toContain('—');
    expect(callQualityFigures(APPROX).note).toBe(APPROX_NOTE);
  });

  it('says when a timed call had nothing to measure for a figure', () => {
    const { note, figures } = callQualityFigures({ ...MEASURED, talkListenRatio: null });
    expect(note).toBe(NOTHING_TO_MEASURE_NOTE);
    expect(figures.map((f) => f.key)).not.toContain('talk-listen');
  });

  it('says the agent’s talk against the caller’s as a comparison', () => {
    expect(talkComparison(2.1)).toBe('2.1× as long as the caller');
    expect(talkComparison(1.02)).toBe('about as long as the caller');
    expect(talkComparison(0.5)).toBe('50% as long as the caller');
  });
});

describe('a call’s quality in one line', () => {
  it('names what went past the thresholds first, then how the agent answered and talked', () => {
    const line = qualityLine(MEASURED, DEFAULT_QUALITY_THRESHOLDS);
    // Slow answers (6.0 s over 3.5 s) and dead air (6.0 s over 5 s); one interruption is under 3.
    expect(line).toEqual({
      verdict: 'poor',
      figures: ['slow answers (1 in 10 took 6.0 s or more)', '6.0 s of dead air', 'answers in 4.5 s'],
    });
    expect(qualityLineText(line)).toBe(
      'Several things to check · slow answers (1 in 10 took 6.0 s or more) · 6.0 s of dead air · answers in 4.5 s',
    );
  });

  it('is smooth when nothing went past a threshold, with two key figures', () => {
    const quick: CallQuality = {
      ...MEASURED,
      responseLatencyMs: { p50: 900, p90: 1400, max: 1500, count: 4 },
      deadAir: { count: 0, longestMs: 0 },
      agentTalkPct: 60,
    };
    expect(qualityLineText(qualityLine(quick, DEFAULT_QUALITY_THRESHOLDS))).toBe(
      'Smooth conversation · answers in 0.9 s · agent talked 60% of the time',
    );
    // A check turned off never counts.
    const noDeadAirCheck = { ...DEFAULT_QUALITY_THRESHOLDS, deadAirMs: null, responseLatencyP90Ms: null };
    expect(qualityLine(MEASURED, noDeadAirCheck).verdict).toBe('good');
    expect(qualityLine(MEASURED, { ...noDeadAirCheck, deadAirMs: 5000 }).verdict).toBe('fair');
  });

  it('says an order-only call’s timing was not measured', () => {
    expect(qualityLineText(qualityLine(APPROX, DEFAULT_QUALITY_THRESHOLDS))).toBe(
      'Timing not measured · 3 turns',
    );
  });
});
