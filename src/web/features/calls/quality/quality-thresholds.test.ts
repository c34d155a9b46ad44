import { describe, expect, it } from 'vitest';
import { DEFAULT_QUALITY_THRESHOLDS } from '../../../../contract/quality';
import {
  defaultHint,
  parseThresholds,
  problemText,
  thresholdsDraft,
  thresholdsPatch,
} from './quality-thresholds';

const DEFAULTS = DEFAULT_QUALITY_THRESHOLDS;

describe('quality thresholds form', () => {
  it('shows the stored thresholds in seconds and times, an off one with the default to turn on again', () => {
    expect(thresholdsDraft({ ...DEFAULTS, deadAirMs: null }, DEFAULTS)).toEqual({
      responseLatencyP90Ms: { on: true, text: '3.5' },
      deadAirMs: { on: false, text: '5' },
      interruptionsCaller: { on: true, text: '3' },
    });
  });

  it('reads what was typed back into ms and counts, an off check as null', () => {
    const { thresholds, problems } = parseThresholds({
      responseLatencyP90Ms: { on: true, text: ' 2,5 ' },
      deadAirMs: { on: true, text: '7' },
      interruptionsCaller: { on: false, text: 'anything' },
    });
    expect(problems).toEqual({});
    expect(thresholds).toEqual({ responseLatencyP90Ms: 2500, deadAirMs: 7000, interruptionsCaller: null });
  });

  it('names each field that does not read, within the server’s bounds', () => {
    const { problems } = parseThresholds({
      responseLatencyP90Ms: { on: true, text: '61' },
      deadAirMs: { on: true, text: '2' },
      interruptionsCaller: { on: true, text: '1.5' },
    });
    expect(problems).toEqual({
      responseLatencyP90Ms: problemText('responseLatencyP90Ms'),
      deadAirMs: 'Enter a number of seconds from 3 to 600',
      interruptionsCaller: 'Enter a whole number from 1 to 1000',
    });
  });

  it('sends only what changed, null turning a check off', () => {
    expect(thresholdsPatch(DEFAULTS, DEFAULTS)).toBeNull();
    expect(thresholdsPatch(DEFAULTS, { ...DEFAULTS, responseLatencyP90Ms: null, deadAirMs: 7000 })).toEqual({
      responseLatencyP90Ms: null,
      deadAirMs: 7000,
    });
  });

  it('says the defaults', () => {
    expect(defaultHint('responseLatencyP90Ms', DEFAULTS)).toBe('Default: 3.5 s');
    expect(defaultHint('interruptionsCaller', DEFAULTS)).toBe('Default: 3 times');
    expect(defaultHint('deadAirMs', { ...DEFAULTS, deadAirMs: null })).toBe('Off by default');
  });
});
