/**
 * A call's quality as the calls store keeps it: measured from the delivery's timed transcript and
 * conversation (providers/voice/types.ts), stored as JSON with four figures copied to columns,
 * and read back for the API. A delivery without a conversation (a list item) keeps what is stored.
 */
import {
  CallQuality,
  type CallQualityBrief,
  type EndedBy,
  type TimingPrecision,
} from '../../contract/quality';
import { speakerOf } from '../../contract/transcript';
import type { CallRow } from '../db/schema';
import type {
  NormalizedCall,
  NormalizedConversation,
  NormalizedTranscriptEntry,
} from '../providers/voice/types';
import { measureConversation } from './measure';

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

type Measurable = Pick<NormalizedCall, 'durationSeconds' | 'status'> & {
  transcript: readonly NormalizedTranscriptEntry[] | null;
};

/** The quality of a call from its lines and what the provider said of the conversation. */
export function qualityOfCall(call: Measurable, conversation: NormalizedConversation): CallQuality | null {
  if (!call.transcript) return null;
  return measureConversation({
    precision: conversation.precision,
    lines: call.transcript.map((line) => ({
      speaker: speakerOf({ role: line.role }) === 'AI Agent' ? 'agent' : 'caller',
      startMs: line.startMs,
      endMs: line.endMs,
    })),
    durationMs: call.durationSeconds * 1000,
    endedBy: conversation.endedBy,
    escalated: call.status === 'transferred' || conversation.endedBy === 'transfer',
    sentiment: conversation.sentiment,
  });
}

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

/** Columns for a delivery: measured when it carried a conversation, else null (keep the stored). */
export function deliveredQualityColumns(
  call: Measurable & { conversation?: NormalizedConversation },
): QualityColumns | null {
  if (!call.conversation || !call.transcript) return null;
  return qualityColumns(qualityOfCall(call, call.conversation));
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
    precision: row.quality_precision as TimingPrecision,
    responseLatencyP90Ms: row.quality_latency_p90_ms,
    interruptionsCaller: row.quality_interruptions_caller,
    deadAirLongestMs: row.quality_dead_air_ms,
  };
}

/** Who ended a call, from the lower-cased `call_ended_by` stored before quality was measured (backfill). */
export function endedByOfStored(endedBy: string | null): EndedBy {
  if (endedBy === 'user' || endedBy === 'customer' || endedBy === 'caller') return 'caller';
  if (endedBy === 'assistant' || endedBy === 'agent') return 'agent';
  return 'unknown';
}
