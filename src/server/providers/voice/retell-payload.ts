/**
 * Retell's call object (POST /v3/list-calls items, GET /v2/get-call/{call_id}, and the `call` of
 * its call_started / call_ended / call_analyzed webhooks), mapped to NormalizedCall: the one place
 * where Retell's field names meet ours (docs/voice-provider.md). Field names follow Retell's
 * published API (retell-typescript-sdk, generated from its OpenAPI spec). No I/O here.
 */
import { z } from 'zod';
import {
  LIMITS,
  MAX_CALL_SECONDS,
  boundedObject,
  callTimeProblem,
  firstIssue,
  httpUrlOrNull,
  idLike,
  looseText,
  numberLike,
  text,
} from './payload-fields';
import type { NormalizedCall, NormalizedCallStatus, NormalizedTranscriptEntry } from './types';
import { answeredBy, plainTranscript } from './vapi-payload';

const analysisSchema = z
  .object({
    call_summary: looseText(LIMITS.summary),
    user_sentiment: text(LIMITS.shortText).nullish(),
    call_successful: z.boolean().nullish(),
    in_voicemail: z.boolean().nullish(),
    custom_analysis_data: z.unknown().optional(),
  })
  .passthrough()
  .nullish();

/** The fields of Retell's call that we read; anything else is accepted and ignored. */
export const retellCallSchema = z
  .object({
    call_id: idLike,
    agent_id: z.string().trim().max(LIMITS.id).nullish(),
    agent_name: z.string().trim().max(LIMITS.pathwayName).nullish(),
    call_type: text(LIMITS.shortText).nullish(),
    call_status: text(LIMITS.shortText).nullish(),
    direction: text(LIMITS.shortText).nullish(),
    from_number: text(LIMITS.phone).nullish(),
    to_number: text(LIMITS.phone).nullish(),
    start_timestamp: z.number().nullish(),
    end_timestamp: z.number().nullish(),
    duration_ms: numberLike(MAX_CALL_SECONDS * 1000, 'A call lasts between 0 and 24 hours').nullish(),
    disconnection_reason: text(LIMITS.shortText).nullish(),
    recording_url: text(LIMITS.url).nullish(),
    transcript: text(LIMITS.transcriptText * 10).nullish(),
    transcript_object: z
      .array(
        z
          .object({ role: text(LIMITS.shortText).nullish(), content: text(LIMITS.transcriptText).nullish() })
          .passthrough(),
      )
      .max(LIMITS.transcriptEntries)
      .nullish(),
    call_analysis: analysisSchema,
    // Cents, per Retell's reference ("combined cost of all individual costs in cents").
    call_cost: z
      .object({ combined_cost: numberLike(100_000, "A call's cost is between 0 and $1,000").nullish() })
      .passthrough()
      .nullish(),
  })
  .passthrough();
export type RetellCall = z.infer<typeof retellCallSchema>;

const FAILED_REASONS = new Set([
  'dial_busy',
  'dial_failed',
  'dial_no_answer',
  'invalid_destination',
  'telephony_provider_permission_denied',
  'telephony_provider_unavailable',
  'sip_routing_error',
  'marked_as_spam',
  'user_declined',
  'concurrency_limit_reached',
  'no_concurrency_fallback',
  'no_valid_payment',
  'scam_detected',
  'registered_call_timeout',
]);
const TRANSFERRED_REASONS = new Set(['call_transfer', 'transfer_bridged']);

/** registered/ongoing: active; not_connected and error: failed; ended: by its disconnection reason. */
export function mapRetellStatus(call: RetellCall): NormalizedCallStatus {
  const status = (call.call_status ?? '').toLowerCase();
  const reason = (call.disconnection_reason ?? '').toLowerCase();
  if (status === 'registered' || status === 'ongoing') return 'active';
  if (TRANSFERRED_REASONS.has(reason)) return 'transferred';
  if (
    status === 'not_connected' ||
    status === 'error' ||
    FAILED_REASONS.has(reason) ||
    reason.startsWith('error_')
  )
    return 'failed';
  if (status === 'ended') return 'completed';
  return 'unknown';
}

export function mapRetellTranscript(call: RetellCall): NormalizedTranscriptEntry[] | null {
  if (call.transcript_object) {
    const entries: NormalizedTranscriptEntry[] = [];
    for (const t of call.transcript_object) {
      const line = (t.content ?? '').trim();
      if (!line) continue;
      // The transfer target is the person the agent handed over to: on our side of the call.
      entries.push({ role: (t.role ?? '').toLowerCase() === 'user' ? 'user' : 'agent', text: line });
    }
    return entries;
  }
  return call.transcript ? plainTranscript(call.transcript, { agent: 'agent', user: 'user' }) : null;
}

export function mapRetellCall(call: RetellCall, now: number): NormalizedCall {
  const analysis = call.call_analysis;
  const cents = call.call_cost?.combined_cost;
  const custom = analysis?.custom_analysis_data;
  const reason = (call.disconnection_reason ?? '').toLowerCase();
  const transcript = mapRetellTranscript(call);
  const durationMs =
    call.duration_ms ??
    (call.start_timestamp != null && call.end_timestamp != null && call.end_timestamp >= call.start_timestamp
      ? call.end_timestamp - call.start_timestamp
      : 0);
  return {
    providerCallId: call.call_id,
    fromNumber: (call.from_number ?? '').trim(),
    toNumber: (call.to_number ?? '').trim(),
    durationSeconds: Math.round(durationMs / 1000),
    status: mapRetellStatus(call),
    pathwayId: call.agent_id?.trim() || null,
    createdAt: call.start_timestamp ?? now,
    recordingUrl: httpUrlOrNull(call.recording_url),
    transcript,
    isProxy: false,
    priceUsd: cents == null ? null : cents / 100,
    insights: {
      summary: analysis?.call_summary ?? null,
      answeredBy: analysis?.in_voicemail === true ? 'voicemail' : answeredBy(reason, transcript),
      endedBy: reason === 'user_hangup' ? 'user' : reason === 'agent_hangup' ? 'assistant' : null,
      errorMessage: reason.startsWith('error_') || FAILED_REASONS.has(reason) ? reason : null,
      dispositionTag:
        analysis?.call_successful === true
          ? 'successful'
          : analysis?.call_successful === false
            ? 'unsuccessful'
            : null,
      // Retell's own verdicts beside the agent's custom analysis fields, for outcome rules.
      analysis: analysis
        ? boundedObject({
            ...(custom && typeof custom === 'object' && !Array.isArray(custom)
              ? (custom as Record<string, unknown>)
              : {}),
            ...(analysis.user_sentiment ? { user_sentiment: analysis.user_sentiment } : {}),
            ...(analysis.call_successful == null ? {} : { call_successful: analysis.call_successful }),
            ...(analysis.in_voicemail == null ? {} : { in_voicemail: analysis.in_voicemail }),
          })
        : null,
      variables: null,
    },
  };
}

export type ParsedRetellCall = { success: true; call: NormalizedCall } | { success: false; message: string };

export function parseRetellCall(json: unknown, now: number = Date.now()): ParsedRetellCall {
  const result = retellCallSchema.safeParse(json);
  if (!result.success) return { success: false, message: firstIssue(result.error) };
  const problem = callTimeProblem(result.data.start_timestamp ?? null, now);
  if (problem) return { success: false, message: `start_timestamp: ${problem}` };
  return { success: true, call: mapRetellCall(result.data, now) };
}

export const retellListSchema = z.object({
  items: z.array(z.unknown()).max(10_000).nullish(),
  has_more: z.boolean().nullish(),
  pagination_key: z.string().max(1000).nullish(),
});

export const retellAgentSchema = z.object({
  agent_name: z.string().trim().min(1).max(LIMITS.pathwayName).nullish(),
});
