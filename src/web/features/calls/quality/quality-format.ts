/**
 * How conversation quality figures read, everywhere they show: the Quality tab, the
 * drawer, the log's column and the filters. Times as seconds with one decimal ("1.2 s", as the
 * Needs-attention reasons say them), shares as percentages, the talk/listen ratio with two
 * decimals. Pure; no figure is invented: a missing one is "—".
 */
import type { TimingPrecision } from '../../../../contract/quality';
import { QUALITY_METRIC_TABLE, type QualityMetric } from '../../../../contract/quality-metrics';

export const NO_FIGURE = '—';

/** ms as seconds: 0 → "0 s", 1234 → "1.2 s", 65000 → "1 min 5 s". */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NO_FIGURE;
  const value = Math.max(0, ms);
  if (value === 0) return '0 s';
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  const seconds = Math.round(value / 1000);
  const rest = seconds % 60;
  return rest === 0 ? `${Math.floor(seconds / 60)} min` : `${Math.floor(seconds / 60)} min ${rest} s`;
}

export function formatPct(pct: number | null | undefined): string {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return NO_FIGURE;
  return `${Number(pct.toFixed(1))}%`;
}

export function formatRatio(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return NO_FIGURE;
  return ratio.toFixed(2);
}

export function formatTimes(count: number | null | undefined, one = 'time', many = 'times'): string {
  if (count === null || count === undefined || !Number.isFinite(count)) return NO_FIGURE;
  return `${count} ${count === 1 ? one : many}`;
}

/** A metric's value in its unit ("2.5 s", "12%", "1.40", "3"). */
export function formatMetric(metric: QualityMetric, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_FIGURE;
  switch (QUALITY_METRIC_TABLE[metric].unit) {
    case 'ms':
      return formatMs(value);
    case 'pct':
      return formatPct(value);
    case 'ratio':
      return formatRatio(value);
    case 'count':
      return String(Math.round(value));
  }
}

/** The difference between two values of a metric, signed, in its unit: "+0.5 s", "−2 pts", "+1". */
export function formatMetricChange(metric: QualityMetric, difference: number): string {
  const { unit } = QUALITY_METRIC_TABLE[metric];
  const rounded =
    unit === 'ms'
      ? Math.round(difference / 100) / 10
      : unit === 'ratio'
        ? Math.round(difference * 100) / 100
        : unit === 'pct'
          ? Math.round(difference * 10) / 10
          : Math.round(difference);
  if (rounded === 0) return 'no change';
  const sign = rounded > 0 ? '+' : '−';
  const size = Math.abs(rounded);
  switch (unit) {
    case 'ms':
      return `${sign}${size.toFixed(1)} s`;
    case 'pct':
      return `${sign}${size} pts`;
    case 'ratio':
      return `${sign}${size.toFixed(2)}`;
    case 'count':
      return `${sign}${size}`;
  }
}

/** What each precision is called, and what it lets us measure, said plainly. */
export const PRECISION_TEXTS: Record<TimingPrecision, { label: string; explanation: string }> = {
  word: {
    label: 'Word timing',
    explanation:
      'The platform gives the start and end of every word (Retell), so each figure is measured to the word.',
  },
  message: {
    label: 'Message timing',
    explanation:
      'The platform gives when each message starts and ends (Vapi), so the figures are measured per message.',
  },
  segment: {
    label: 'Segment timing',
    explanation:
      'The corrected transcript gives the start and end of each segment (Bland), so the figures are measured per segment.',
  },
  approx: {
    label: 'Order only',
    explanation:
      'The platform gives only the order of the lines and a clock time each, no durations (Bland without a corrected transcript): turns and who ended the call are counted, but response times, interruptions, dead air and talk shares cannot be measured.',
  },
};

/** A precision's explanation; without the platform's name (the parenthesis) unless it may be shown. */
export function precisionExplanation(precision: TimingPrecision, showPlatform: boolean): string {
  const text = PRECISION_TEXTS[precision].explanation;
  return showPlatform ? text : text.replace(/ \([^)]*\)/, '');
}
