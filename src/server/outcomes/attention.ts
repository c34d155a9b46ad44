/**
 * Which calls a person should look at, and why: failed, ended with an error, the caller asked for
 * a call-back (in the summary or their own lines of the transcript), very short connected calls, and calls whose outcome
 * the client marked as needing attention. Pure; computed with the outcome.
 */
import { ATTENTION_REASONS, type Outcome, SHORT_CALL_SECONDS } from '../../contract/outcomes';
import { QUALITY_ATTENTION, type QualityThresholds } from '../../contract/quality';
import type { CallFacts } from './classify';

const CALLBACK = /\b(call(ing)?\s+(me|us)\s+back|call-?back|ring\s+(me|us)\s+back)\b/i;

export function attentionReasons(
  facts: CallFacts & { errorMessage: string | null },
  outcomeName: string,
  outcomes: readonly Outcome[],
  thresholds: QualityThresholds,
): string[] {
  const reasons: string[] = [];
  if (facts.status === 'failed') reasons.push(ATTENTION_REASONS.failed);
  if (facts.errorMessage?.trim()) reasons.push(ATTENTION_REASONS.error);
  if (CALLBACK.test(facts.summary ?? '') || CALLBACK.test(facts.callerTranscript ?? ''))
    reasons.push(ATTENTION_REASONS.callback);
  const connected = facts.status === 'completed' || facts.status === 'transferred';
  if (connected && facts.durationSeconds > 0 && facts.durationSeconds < SHORT_CALL_SECONDS)
    reasons.push(ATTENTION_REASONS.short);
  if (outcomes.find((o) => o.name === outcomeName)?.needsAttention)
    reasons.push(ATTENTION_REASONS.outcome(outcomeName));
  reasons.push(...qualityReasons(facts.quality, thresholds));
  return reasons;
}

/** The client's quality thresholds a call crossed; a figure the call lacks crosses none. */
function qualityReasons(quality: CallFacts['quality'], thresholds: QualityThresholds): string[] {
  if (!quality) return [];
  const reasons: string[] = [];
  const { responseLatencyP90Ms: p90, deadAirLongestMs: deadAir, interruptionsCaller: interrupted } = quality;
  if (thresholds.responseLatencyP90Ms !== null && p90 !== null && p90 > thresholds.responseLatencyP90Ms)
    reasons.push(QUALITY_ATTENTION.slow(p90));
  if (thresholds.deadAirMs !== null && deadAir !== null && deadAir >= thresholds.deadAirMs)
    reasons.push(QUALITY_ATTENTION.deadAir(deadAir));
  if (
    thresholds.interruptionsCaller !== null &&
    interrupted !== null &&
    interrupted >= thresholds.interruptionsCaller
  )
    reasons.push(QUALITY_ATTENTION.interrupted(interrupted));
  return reasons;
}
