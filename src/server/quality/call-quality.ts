/**
 * A call's quality measured from the delivery's timed transcript and conversation
 * (providers/voice/types.ts); stored and read back as call-rows/quality-columns.ts. A delivery
 * without a conversation (a list item) keeps what is stored.
 */
import type { CallQuality, EndedBy } from '../../contract/quality';
import { speakerOf } from '../../contract/transcript';
import { type QualityColumns, qualityColumns } from '../call-rows/quality-columns';
import type {
  NormalizedCall,
  NormalizedConversation,
  NormalizedTranscriptEntry,
} from '../providers/voice/types';
import { measureConversation } from './measure';

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

/** Columns for a delivery: measured when it carried a conversation, else null (keep the stored). */
export function deliveredQualityColumns(
  call: Measurable & { conversation?: NormalizedConversation },
): QualityColumns | null {
  if (!call.conversation || !call.transcript) return null;
  return qualityColumns(qualityOfCall(call, call.conversation));
}

/** Who ended a call, from the lower-cased `call_ended_by` stored before quality was measured (backfill). */
export function endedByOfStored(endedBy: string | null): EndedBy {
  if (endedBy === 'user' || endedBy === 'customer' || endedBy === 'caller') return 'caller';
  if (endedBy === 'assistant' || endedBy === 'agent') return 'agent';
  return 'unknown';
}
