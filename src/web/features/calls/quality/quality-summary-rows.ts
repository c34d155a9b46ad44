/**
 * The rest of the Quality tab as display-ready rows: calls per precision with what each
 * precision lets us measure, the distribution of the three worst-call metrics in fixed buckets
 * (so two periods read alike), and the worst calls grouped per metric with the moment each opens
 * the call drawer at. Pure.
 */
import {
  type QualitySummary,
  TIMING_PRECISIONS,
  type TimingPrecision,
  WORST_METRICS,
  type WorstCall,
  type WorstMetric,
} from '../../../../contract/quality';
import { formatClock } from '../transcript-timing';
import { formatMs, formatTimes, PRECISION_TEXTS } from './quality-format';

export interface PrecisionRow {
  precision: TimingPrecision;
  label: string;
  explanation: string;
  calls: number;
  /** Whole percent of the period's measured calls. */
  percent: number;
}

export function precisionRows(precision: QualitySummary['precision']): PrecisionRow[] {
  const total = TIMING_PRECISIONS.reduce((sum, p) => sum + (precision[p] ?? 0), 0);
  return TIMING_PRECISIONS.map((p) => ({
    precision: p,
    ...PRECISION_TEXTS[p],
    calls: precision[p] ?? 0,
    percent: total > 0 ? Math.round(((precision[p] ?? 0) / total) * 100) : 0,
  }));
}

/** A bucket takes values from `from` (included) up to the next bucket's `from`. */
interface Bucket {
  from: number;
  label: string;
}

const BUCKETS: Record<WorstMetric, Bucket[]> = {
  responseLatencyP90Ms: [
    { from: 0, label: 'Under 1 s' },
    { from: 1000, label: '1–2 s' },
    { from: 2000, label: '2–3.5 s' },
    { from: 3500, label: '3.5–5 s' },
    { from: 5000, label: '5–10 s' },
    { from: 10_000, label: '10 s or more' },
  ],
  interruptionsCaller: [
    { from: 0, label: 'None' },
    { from: 1, label: '1' },
    { from: 2, label: '2' },
    { from: 3, label: '3–4' },
    { from: 5, label: '5 or more' },
  ],
  // Dead air counts from 3 s: a call without any has 0.
  deadAirLongestMs: [
    { from: 0, label: 'None' },
    { from: 1, label: 'Under 5 s' },
    { from: 5000, label: '5–10 s' },
    { from: 10_000, label: '10–30 s' },
    { from: 30_000, label: '30 s or more' },
  ],
};

export const DISTRIBUTION_TITLES: Record<WorstMetric, { title: string; unit: string }> = {
  responseLatencyP90Ms: { title: 'Slow answers: 9 in 10 answers came within', unit: 'answer time' },
  interruptionsCaller: { title: 'Caller interruptions per call', unit: 'interruptions' },
  deadAirLongestMs: { title: 'Longest dead air per call', unit: 'longest dead air' },
};

export interface DistributionRow {
  label: string;
  calls: number;
  /** Whole percent of the calls measured on this metric (the bar's length). */
  percent: number;
}

export function distributionRows(
  metric: WorstMetric,
  values: readonly { value: number; calls: number }[] | undefined,
): DistributionRow[] {
  const buckets = BUCKETS[metric];
  const counts = buckets.map(() => 0);
  for (const { value, calls } of values ?? []) {
    let index = 0;
    for (let i = 0; i < buckets.length; i++) if (value >= (buckets[i]?.from ?? 0)) index = i;
    counts[index] = (counts[index] ?? 0) + calls;
  }
  const total = counts.reduce((a, b) => a + b, 0);
  return buckets.map((b, i) => ({
    label: b.label,
    calls: counts[i] ?? 0,
    percent: total > 0 ? Math.round(((counts[i] ?? 0) / total) * 100) : 0,
  }));
}

export const WORST_TITLES: Record<WorstMetric, string> = {
  responseLatencyP90Ms: 'Slowest answers',
  interruptionsCaller: 'Most interruptions',
  deadAirLongestMs: 'Longest dead air',
};

export interface WorstRow {
  callId: string;
  metric: WorstMetric;
  /** "1 in 10 answers took 6.0 s or more", "3 interruptions", "6.0 s of dead air". */
  value: string;
  createdAt: string;
  /** Where the drawer opens (seconds from the start), and as m:ss; null: at the start. */
  seconds: number | null;
  at: string | null;
}

function worstValue(metric: WorstMetric, value: number): string {
  switch (metric) {
    case 'responseLatencyP90Ms':
      return `1 in 10 answers took ${formatMs(value)} or more`;
    case 'interruptionsCaller':
      return formatTimes(value, 'interruption', 'interruptions');
    case 'deadAirLongestMs':
      return `${formatMs(value)} of dead air`;
  }
}

/** The worst calls per metric, in the server's order (worst first), each metric's list possibly empty. */
export function worstGroups(
  worst: readonly WorstCall[],
): { metric: WorstMetric; title: string; rows: WorstRow[] }[] {
  return WORST_METRICS.map((metric) => ({
    metric,
    title: WORST_TITLES[metric],
    rows: worst
      .filter((w) => w.metric === metric)
      .map((w) => {
        const seconds = w.atMs === null ? null : Math.floor(w.atMs / 1000);
        return {
          callId: w.callId,
          metric,
          value: worstValue(metric, w.value),
          createdAt: w.createdAt,
          seconds,
          at: seconds === null ? null : formatClock(seconds),
        };
      }),
  }));
}
