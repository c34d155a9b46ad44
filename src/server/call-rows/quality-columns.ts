/**
 * A call's quality as the calls table keeps it: the measured quality stored as JSON with four
 * figures copied to columns (written by calls/write, measured by quality/call-quality.ts), and
 * read back for the API, the outcome rules and the rollups. Pure; below the features.
 */
import {
  CallQuality,
  type CallQualityBrief,
  type QualityMetric,
  type TimingPrecision,
} from '../../contract/quality';
import type { CallRow } from '../db/schema';

export type QualityColumns = Pick<
  CallRow,
  | 'quality_json'
  | 'quality_precision'
  | 'quality_latency_p90_ms'
  | 'quality_interruptions_caller'
  | 'quality_dead_air_ms'
>;

export const NO_QUALITY: QualityColumns = {
  quality_json: null,
  quality_precision: null,
  quality_latency_p90_ms: null,
  quality_interruptions_caller: null,
  quality_dead_air_ms: null,
};

export function qualityColumns(quality: CallQuality | null): QualityColumns {
  if (!quality) return NO_QUALITY;
  return {
    quality_json: JSON.stringify(quality),
    quality_precision: quality.precision,
    quality_latency_p90_ms: quality.responseLatencyMs?.p90 ?? null,
    quality_interruptions_caller: quality.interruptions?.caller ?? null,
    quality_dead_air_ms: quality.deadAir?.longestMs ?? null,
  };
}

/** The stored quality, or null when there is none or it does not read (never a 500). */
export function storedQuality(json: string | null): CallQuality | null {
  if (!json) return null;
  try {
    const parsed = CallQuality.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function qualityBrief(row: Pick<CallRow, keyof QualityColumns>): CallQualityBrief | null {
  if (!row.quality_precision) return null;
  return {
    // The column is plain text; only a TimingPrecision is ever written to it
    precision: row.quality_precision as TimingPrecision,
    responseLatencyP90Ms: row.quality_latency_p90_ms,
    interruptionsCaller: row.quality_interruptions_caller,
    deadAirLongestMs: row.quality_dead_air_ms,
  };
}

/** A call's figure of each metric, or null where its precision does not support it. */
export function metricValues(q: CallQuality): Record<QualityMetric, number | null> {
  return {
    responseLatencyP50Ms: q.responseLatencyMs?.p50 ?? null,
    responseLatencyP90Ms: q.responseLatencyMs?.p90 ?? null,
    interruptionsCaller: q.interruptions?.caller ?? null,
    interruptionsAgent: q.interruptions?.agent ?? null,
    deadAirLongestMs: q.deadAir?.longestMs ?? null,
    silencePct: q.silencePct,
    agentTalkPct: q.agentTalkPct,
    talkListenRatio: q.talkListenRatio,
    longestMonologueMs: q.longestMonologueMs,
    turns: q.turns,
  };
}
