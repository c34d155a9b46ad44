import { describe, expect, it } from 'vitest';
import { qualityBriefText } from './quality-brief';

describe('the call log’s quality column', () => {
  it('names what stands out, short, and in full for screen readers', () => {
    expect(
      qualityBriefText({
        precision: 'segment',
        responseLatencyP90Ms: 4500,
        interruptionsCaller: 1,
        deadAirLongestMs: 6000,
      }),
    ).toEqual({
      text: 'answers within 4.5 s · 1 interruption · dead air 6.0 s',
      parts: ['answers within 4.5 s', '1 interruption', 'dead air 6.0 s'],
      description:
        '9 answers in 10 came within 4.5 s, the caller interrupted 1 time, longest dead air 6.0 s (segment timing)',
    });
  });

  it('leaves out no interruption and no dead air', () => {
    expect(
      qualityBriefText({
        precision: 'word',
        responseLatencyP90Ms: 800,
        interruptionsCaller: 0,
        deadAirLongestMs: 0,
      }).text,
    ).toBe('answers within 0.8 s');
  });

  it('says order only, or not measured', () => {
    expect(
      qualityBriefText({
        precision: 'approx',
        responseLatencyP90Ms: null,
        interruptionsCaller: null,
        deadAirLongestMs: null,
      }).text,
    ).toBe('Order only');
    expect(qualityBriefText(null)).toEqual({ text: '—', parts: ['—'], description: 'Not measured' });
  });
});
