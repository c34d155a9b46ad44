import { describe, expect, it } from 'vitest';
import {
  formatMetric,
  formatMetricChange,
  formatMs,
  formatPct,
  formatRatio,
  formatTimes,
} from './quality-format';

describe('quality formats', () => {
  it('says times in seconds with one decimal, as the Needs-attention reasons do', () => {
    expect(formatMs(6000)).toBe('6.0 s');
    expect(formatMs(1234)).toBe('1.2 s');
    expect(formatMs(50)).toBe('0.1 s');
    expect(formatMs(0)).toBe('0 s');
    expect(formatMs(65_000)).toBe('1 min 5 s');
    expect(formatMs(120_000)).toBe('2 min');
    expect(formatMs(null)).toBe('—');
  });

  it('says shares, ratios and counts, and — for a missing figure', () => {
    expect(formatPct(21.3)).toBe('21.3%');
    expect(formatPct(10)).toBe('10%');
    expect(formatRatio(2.1)).toBe('2.10');
    expect(formatTimes(1)).toBe('1 time');
    expect(formatTimes(3, 'interruption', 'interruptions')).toBe('3 interruptions');
    expect(formatPct(null)).toBe('—');
    expect(formatMetric('talkListenRatio', null)).toBe('—');
    expect(formatMetric('interruptionsCaller', 1)).toBe('1');
    expect(formatMetric('deadAirLongestMs', 6000)).toBe('6.0 s');
  });

  it('signs a change in the metric’s unit, and says when there is none', () => {
    expect(formatMetricChange('responseLatencyP90Ms', -500)).toBe('−0.5 s');
    expect(formatMetricChange('responseLatencyP90Ms', 40)).toBe('no change');
    expect(formatMetricChange('interruptionsCaller', 1)).toBe('+1');
    expect(formatMetricChange('silencePct', 2.25)).toBe('+2.3 pts');
    expect(formatMetricChange('talkListenRatio', -0.1)).toBe('−0.10');
  });
});
