/**
 * The quality thresholds form as typed, pure and tested: each threshold on or off, its
 * value in the unit people think in (seconds, times), the problems of what was typed, and the
 * patch a save sends (only what changed; null turns a check off).
 */
import {
  DEAD_AIR_MS,
  type QualityThresholds,
  type QualityThresholdsUpdate,
} from '../../../../contract/quality';
import { formatMs } from './quality-format';

export type ThresholdField = keyof QualityThresholds;
export const THRESHOLD_FIELDS = [
  'responseLatencyP90Ms',
  'deadAirMs',
  'interruptionsCaller',
] as const satisfies readonly ThresholdField[];

interface FieldSpec {
  label: string;
  /** When the check puts a call in Needs attention, with the value. */
  rule: (value: string) => string;
  unit: string;
  /** Stored value per unit typed. */
  scale: number;
  min: number;
  max: number;
  /** Decimals the input takes. */
  decimals: number;
}

export const THRESHOLD_SPECS: Record<ThresholdField, FieldSpec> = {
  responseLatencyP90Ms: {
    label: 'Slow answers',
    rule: (v) => `A call’s p90 response time is over ${v} s`,
    unit: 's',
    scale: 1000,
    min: 0.1,
    max: 60,
    decimals: 1,
  },
  deadAirMs: {
    label: 'Dead air',
    rule: (v) => `Nobody speaks for ${v} s or more`,
    unit: 's',
    scale: 1000,
    min: DEAD_AIR_MS / 1000,
    max: 600,
    decimals: 1,
  },
  interruptionsCaller: {
    label: 'Caller interruptions',
    rule: (v) => `The caller interrupts the agent ${v} times or more`,
    unit: 'times',
    scale: 1,
    min: 1,
    max: 1000,
    decimals: 0,
  },
};

export interface ThresholdInput {
  on: boolean;
  /** What is typed, in the field's unit. */
  text: string;
}
export type ThresholdsDraft = Record<ThresholdField, ThresholdInput>;

/** A stored value in the field's unit: 3500 → "3.5", 5000 → "5", 3 → "3". */
export function unitText(field: ThresholdField, stored: number): string {
  const spec = THRESHOLD_SPECS[field];
  return String(Number((stored / spec.scale).toFixed(spec.decimals)));
}

/** Off keeps the default's value in the box, so turning a check on again offers something sensible. */
export function thresholdsDraft(saved: QualityThresholds, defaults: QualityThresholds): ThresholdsDraft {
  const entry = (field: ThresholdField): ThresholdInput => {
    const value = saved[field] ?? defaults[field];
    return { on: saved[field] !== null, text: value === null ? '' : unitText(field, value) };
  };
  return {
    responseLatencyP90Ms: entry('responseLatencyP90Ms'),
    deadAirMs: entry('deadAirMs'),
    interruptionsCaller: entry('interruptionsCaller'),
  };
}

export function problemText(field: ThresholdField): string {
  const spec = THRESHOLD_SPECS[field];
  return spec.decimals === 0
    ? `Enter a whole number from ${spec.min} to ${spec.max}`
    : `Enter a number of seconds from ${spec.min} to ${spec.max}`;
}

/** The thresholds the draft names, or the problem of each field that does not read. */
export function parseThresholds(draft: ThresholdsDraft): {
  thresholds: QualityThresholds;
  problems: Partial<Record<ThresholdField, string>>;
} {
  const thresholds: QualityThresholds = {
    responseLatencyP90Ms: null,
    deadAirMs: null,
    interruptionsCaller: null,
  };
  const problems: Partial<Record<ThresholdField, string>> = {};
  for (const field of THRESHOLD_FIELDS) {
    const { on, text } = draft[field];
    if (!on) continue;
    const spec = THRESHOLD_SPECS[field];
    const typed = text.trim().replace(',', '.');
    const pattern = spec.decimals === 0 ? /^\d+$/ : /^\d+(\.\d+)?$/;
    const value = pattern.test(typed) ? Number(typed) : Number.NaN;
    if (!(value >= spec.min && value <= spec.max)) problems[field] = problemText(field);
    else thresholds[field] = Math.round(value * spec.scale);
  }
  return { thresholds, problems };
}

/** What a save sends: each threshold that differs from the saved one; null when nothing does. */
export function thresholdsPatch(
  saved: QualityThresholds,
  next: QualityThresholds,
): QualityThresholdsUpdate | null {
  const patch: QualityThresholdsUpdate = {};
  for (const field of THRESHOLD_FIELDS) if (saved[field] !== next[field]) patch[field] = next[field];
  return Object.keys(patch).length > 0 ? patch : null;
}

/** "Default: 3.5 s", "Default: 3 times", or "Off by default". */
export function defaultHint(field: ThresholdField, defaults: QualityThresholds): string {
  const value = defaults[field];
  if (value === null) return 'Off by default';
  return field === 'interruptionsCaller' ? `Default: ${value} times` : `Default: ${formatMs(value)}`;
}
