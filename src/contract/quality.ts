/**
 * Conversation quality: how well the agent talks, per call and per client, computed the
 * same way for every voice platform from the utterances' times the platform gives. What the
 * timing allows is said beside the figures (`precision`); a figure it cannot support is null.
 */
import { z } from 'zod';
import { DateRangeParam, LocalDay } from './common';
import { QUALITY_METRICS, type QualityThresholdValues } from './quality-metrics';

/**
 * How precise a call's utterance times are: per word (Retell), per message (Vapi), per corrected
 * segment (Bland's corrected transcript), or only the order of the lines (`approx`: Bland's
 * post-call transcript, which carries a clock time per line but no durations).
 */
export const TIMING_PRECISIONS = ['word', 'message', 'segment', 'approx'] as const;
export type TimingPrecision = (typeof TIMING_PRECISIONS)[number];

export const ENDED_BY = ['agent', 'caller', 'system', 'transfer', 'unknown'] as const;
export type EndedBy = (typeof ENDED_BY)[number];

/** Gaps where nobody speaks count as dead air from this long. */
export const DEAD_AIR_MS = 3000;
/** Gaps count as silence (silencePct) only past this long, as in Google CCAI Insights. */
export const SILENCE_MS = 5000;
/** Two parties overlapping this long is an interruption (shorter is a backchannel, "mm-hm"). */
export const INTERRUPTION_OVERLAP_MS = 300;
/** A turn the synced transcript marks as slow: Hamming's p95 target for turn latency. */
export const SLOW_TURN_MS = 3500;
/** At most this many moments are kept per call (the earliest). */
export const MAX_MOMENTS = 50;

const count = z.number().int().nonnegative();
const ms = z.number().int().nonnegative();

/** A moment the synced transcript marks, in ms from the call's start. */
export const QUALITY_MOMENTS = ['slow_turn', 'caller_interrupted', 'agent_interrupted', 'dead_air'] as const;
export type QualityMomentKind = (typeof QUALITY_MOMENTS)[number];
export const QualityMoment = z.object({ kind: z.enum(QUALITY_MOMENTS), atMs: ms, durationMs: ms });
export type QualityMoment = z.infer<typeof QualityMoment>;

/** GET /api/client/calls/{id} → `quality`: null when the call has no utterances to measure. */
export const CallQuality = z.object({
  precision: z.enum(TIMING_PRECISIONS),
  /** Runs of one party speaking (consecutive lines of the same party are one turn). */
  turns: count,
  /** The agent's start minus the end of the caller's last utterance before it, per caller→agent turn. */
  responseLatencyMs: z
    .object({ p50: ms.nullable(), p90: ms.nullable(), max: ms.nullable(), count })
    .nullable(),
  /** Starts while the other party is still speaking, ≥ INTERRUPTION_OVERLAP_MS of overlap. */
  interruptions: z.object({ caller: count, agent: count }).nullable(),
  /** Gaps ≥ DEAD_AIR_MS between the first and the last utterance where nobody speaks. */
  deadAir: z.object({ count, longestMs: ms }).nullable(),
  /** Gaps over SILENCE_MS as a share of the call, in % (one decimal). */
  silencePct: z.number().nullable(),
  /** The agent's speaking time as a share of the call, in % (one decimal). */
  agentTalkPct: z.number().nullable(),
  /** Agent speaking time over caller speaking time (two decimals); null when the caller never spoke. */
  talkListenRatio: z.number().nullable(),
  /** The agent's longest run of speech without the caller speaking. */
  longestMonologueMs: ms.nullable(),
  endedBy: z.enum(ENDED_BY),
  /** Any transfer to a person or another number. */
  escalated: z.boolean(),
  /** The provider's sentiment label where it gives one ("Positive"), else null. */
  sentiment: z.string().nullable(),
  /** Slow turns (over the client's threshold), interruptions and dead air, for the synced transcript. */
  moments: z.array(QualityMoment),
});
export type CallQuality = z.infer<typeof CallQuality>;

/** The compact form in the call log. */
export const CallQualityBrief = z.object({
  precision: z.enum(TIMING_PRECISIONS),
  responseLatencyP90Ms: ms.nullable(),
  interruptionsCaller: count.nullable(),
  deadAirLongestMs: ms.nullable(),
});
export type CallQualityBrief = z.infer<typeof CallQualityBrief>;

/** The per-call figures the client's summary aggregates: the table in quality-metrics.ts. */
export {
  QUALITY_METRIC_TABLE,
  QUALITY_METRICS,
  type QualityDirection,
  type QualityMetric,
  type QualityMetricSpec,
  type QualityUnit,
} from './quality-metrics';

export const MetricFigures = z.object({
  median: z.number().nullable(),
  p90: z.number().nullable(),
  calls: count,
});
export type MetricFigures = z.infer<typeof MetricFigures>;

export const QualityPeriod = z.object({
  /** Local days, inclusive. */
  from: z.string(),
  to: z.string(),
  /** Calls measured in the period (any precision). */
  calls: count,
  metrics: z.record(z.enum(QUALITY_METRICS), MetricFigures),
});
export type QualityPeriod = z.infer<typeof QualityPeriod>;

/** Which call ranks worst on what, and where in the call (ms from its start) that happened. */
export const WORST_METRICS = ['responseLatencyP90Ms', 'interruptionsCaller', 'deadAirLongestMs'] as const;
export type WorstMetric = (typeof WORST_METRICS)[number];
export const WorstCall = z.object({
  callId: z.string(),
  metric: z.enum(WORST_METRICS),
  value: z.number(),
  atMs: ms.nullable(),
  createdAt: z.string(),
});
export type WorstCall = z.infer<typeof WorstCall>;

export const QualitySummary = z.object({
  current: QualityPeriod,
  previous: QualityPeriod,
  precision: z.object({ word: count, message: count, segment: count, approx: count }),
  /** The current period's calls per value of the worst-call metrics (grid values, ascending). */
  distribution: z.record(z.enum(WORST_METRICS), z.array(z.object({ value: z.number(), calls: count }))),
  worst: z.array(WorstCall),
});
export type QualitySummary = z.infer<typeof QualitySummary>;

/** GET /api/client/quality/summary: a preset range, or local days from/to (both). */
export const QualitySummaryQuery = z
  .object({ dateRange: DateRangeParam, from: LocalDay.optional(), to: LocalDay.optional() })
  .superRefine((q, ctx) => {
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: QUALITY_MESSAGES.rangePair, path: ['from'] });
    else if (q.from !== undefined && q.to !== undefined && q.from > q.to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: QUALITY_MESSAGES.rangeOrder, path: ['from'] });
    else if (q.from !== undefined && q.to !== undefined && daysBetween(q.from, q.to) > MAX_QUALITY_DAYS)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: QUALITY_MESSAGES.rangeTooLong, path: ['from'] });
  });
export type QualitySummaryQuery = z.output<typeof QualitySummaryQuery>;

export const MAX_QUALITY_DAYS = 366;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

/**
 * What puts a call in Needs attention (null: that check is off). Defaults as Hamming's production
 * targets: a p90 answer over 3.5 s, any dead air of 5 s, 3 caller interruptions.
 */
export const QualityThresholds = z.object({
  responseLatencyP90Ms: z.number().int().min(100).max(60_000).nullable(),
  deadAirMs: z.number().int().min(DEAD_AIR_MS).max(600_000).nullable(),
  interruptionsCaller: z.number().int().min(1).max(1000).nullable(),
}) satisfies z.ZodType<QualityThresholdValues>;
export type QualityThresholds = z.infer<typeof QualityThresholds>;
export { DEFAULT_QUALITY_THRESHOLDS } from './quality-metrics';
/** PUT body: a patch; a field left out keeps its value. */
export const QualityThresholdsUpdate = QualityThresholds.partial().strict();
export type QualityThresholdsUpdate = z.infer<typeof QualityThresholdsUpdate>;

export const QUALITY_MESSAGES = {
  rangePair: 'from and to go together',
  rangeOrder: 'from must not be after to',
  rangeTooLong: `The range may span at most ${MAX_QUALITY_DAYS} days`,
} as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Needs-attention reasons from the thresholds, word for word as the log and the drawer show them. */
export const QUALITY_ATTENTION = {
  slow: (p90Ms: number) => `Slow answers: 1 in 10 took ${seconds(p90Ms)} or more`,
  deadAir: (longestMs: number) => `Dead air of ${seconds(longestMs)}`,
  interrupted: (times: number) => `Caller interrupted the agent ${times} times`,
} as const;

/** Outcome rule fields reading a call's quality (numbers; a call without the figure never matches). */
export const QUALITY_RULE_FIELDS = [
  'quality.responseLatencyP50Ms',
  'quality.responseLatencyP90Ms',
  'quality.interruptionsCaller',
  'quality.interruptionsAgent',
  'quality.deadAirLongestMs',
  'quality.silencePct',
  'quality.agentTalkPct',
  'quality.turns',
] as const;

/** GET/PUT …/quality/thresholds: the thresholds, and how far re-classifying under them got. */
export const QualityThresholdsState = z.object({
  thresholds: QualityThresholds,
  defaults: QualityThresholds,
  /** Earlier calls measured so far (the backfill after quality arrived); null when none is due. */
  measuring: z.object({ done: count, total: count }).nullable(),
});
export type QualityThresholdsState = z.infer<typeof QualityThresholdsState>;
