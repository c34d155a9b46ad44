/**
 * The quality metric table, written once for server and browser: each per-call figure the
 * client's summary aggregates (median and p90 over its calls), its unit, its name on the Quality
 * tab and which direction is better; and the thresholds a client starts with. Plain values: the
 * browser's first bundle reads them for the log's filters and must not carry zod (see
 * log-options.ts). quality.ts re-exports them.
 */

/**
 * The metrics, in the order the summary lists them. Stored as daily rollups of their values on a
 * grid (server quality/grid.ts, which snaps each by its unit), so a summary reads days, not calls.
 */
export const QUALITY_METRICS = [
  'responseLatencyP50Ms',
  'responseLatencyP90Ms',
  'interruptionsCaller',
  'interruptionsAgent',
  'deadAirLongestMs',
  'silencePct',
  'agentTalkPct',
  'talkListenRatio',
  'longestMonologueMs',
  'turns',
] as const;
export type QualityMetric = (typeof QUALITY_METRICS)[number];

/** ms: a time; count: whole times; pct: a share in %; ratio: one figure over another. */
export type QualityUnit = 'ms' | 'count' | 'pct' | 'ratio';

/** lower: a smaller figure is better (a quicker answer); none: neither way is (how much the agent talks). */
export type QualityDirection = 'lower' | 'none';

export interface QualityMetricSpec {
  unit: QualityUnit;
  /** The metric's name where people read it (the Quality tab's cards, the call's figures). */
  label: string;
  better: QualityDirection;
}

export const QUALITY_METRIC_TABLE: Record<QualityMetric, QualityMetricSpec> = {
  responseLatencyP50Ms: { unit: 'ms', label: 'Answer time', better: 'lower' },
  responseLatencyP90Ms: { unit: 'ms', label: 'Slow answers', better: 'lower' },
  interruptionsCaller: { unit: 'count', label: 'Caller interruptions', better: 'lower' },
  interruptionsAgent: { unit: 'count', label: 'Agent interrupted the caller', better: 'lower' },
  deadAirLongestMs: { unit: 'ms', label: 'Longest dead air', better: 'lower' },
  silencePct: { unit: 'pct', label: 'Silence', better: 'lower' },
  agentTalkPct: { unit: 'pct', label: 'Agent talked', better: 'none' },
  talkListenRatio: { unit: 'ratio', label: 'Agent vs. caller talk', better: 'none' },
  longestMonologueMs: { unit: 'ms', label: 'Agent’s longest stretch', better: 'lower' },
  turns: { unit: 'count', label: 'Turns (who spoke, in runs)', better: 'none' },
};

/** quality.ts's QualityThresholds (its schema satisfies this shape). */
export interface QualityThresholdValues {
  responseLatencyP90Ms: number | null;
  deadAirMs: number | null;
  interruptionsCaller: number | null;
}

/** What puts a call in Needs attention until the client says otherwise (null: that check is off). */
export const DEFAULT_QUALITY_THRESHOLDS: QualityThresholdValues = {
  responseLatencyP90Ms: 3500,
  deadAirMs: 5000,
  interruptionsCaller: 3,
};
