import { describe, expect, it } from 'vitest';
import { QUALITY_METRICS, type QualityMetric, type QualityPeriod } from '../../../../contract/quality';
import { buildQualityCards, hasMeasuredCalls, measuringText } from './quality-cards';

function period(
  calls: number,
  figures: Partial<Record<QualityMetric, [number | null, number | null]>>,
): QualityPeriod {
  const metrics = {} as QualityPeriod['metrics'];
  for (const metric of QUALITY_METRICS) {
    const [median, p90] = figures[metric] ?? [null, null];
    metrics[metric] = { median, p90, calls: median === null ? 0 : calls };
  }
  return { from: '2026-06-04', to: '2026-06-10', calls, metrics };
}

describe('quality cards', () => {
  const current = period(3, {
    responseLatencyP50Ms: [2000, 4500],
    responseLatencyP90Ms: [2500, 6000],
    interruptionsCaller: [1, 1],
    deadAirLongestMs: [0, 6000],
    silencePct: [4, 10],
    agentTalkPct: [40, 45],
    talkListenRatio: [1.5, 2.1],
  });
  const previous = period(1, {
    responseLatencyP50Ms: [2000, 2000],
    responseLatencyP90Ms: [3000, 3000],
    interruptionsCaller: [0, 0],
    deadAirLongestMs: [3000, 3000],
    agentTalkPct: [35, 35],
  });

  it('gives each metric its median and p90, and the median’s change coloured by the better direction', () => {
    const cards = buildQualityCards({ current, previous });
    expect(cards.map((c) => [c.metric, c.median, c.p90, c.change, c.trend])).toEqual([
      ['responseLatencyP50Ms', '2.0 s', '4.5 s', 'no change', 'same'],
      ['responseLatencyP90Ms', '2.5 s', '6.0 s', '−0.5 s', 'better'],
      ['interruptionsCaller', '1', '1', '+1', 'worse'],
      ['deadAirLongestMs', '0 s', '6.0 s', '−3.0 s', 'better'],
      ['silencePct', '4%', '10%', '—', 'none'],
      ['agentTalkPct', '40%', '45%', '+5 pts', 'neutral'],
      ['talkListenRatio', '1.50', '2.10', '—', 'none'],
    ]);
    expect(cards[0]?.calls).toBe(3);
  });

  it('speaks plainly: no p90 or ratio in a title or hint, and the slow-answer threshold in seconds', () => {
    const cards = buildQualityCards({ current, previous }, 3500);
    for (const card of cards)
      expect(`${card.title} ${card.hint}`).not.toMatch(/p90|percentile|ratio|talk\/listen/i);
    expect(cards.find((c) => c.metric === 'responseLatencyP90Ms')?.hint).toContain(
      'From 3.5 s a call needs attention.',
    );
    expect(cards.find((c) => c.metric === 'talkListenRatio')?.title).toBe('Agent vs. caller talk');
    expect(
      buildQualityCards({ current, previous }).find((c) => c.metric === 'responseLatencyP90Ms')?.hint,
    ).not.toContain('needs attention');
  });

  it('has nothing to show when no call of the period was measured', () => {
    expect(hasMeasuredCalls({ current })).toBe(true);
    expect(hasMeasuredCalls({ current: period(0, {}) })).toBe(false);
    expect(buildQualityCards({ current: period(0, {}), previous }).every((c) => c.median === '—')).toBe(true);
  });

  it('says how far measuring earlier calls got', () => {
    expect(measuringText({ done: 1200, total: 5000 })).toMatch(/^Measuring earlier calls: 1,200 of 5,000\./);
  });
});
