/**
 * Retell's call object (POST /v3/list-calls items, GET /v2/get-call/{call_id}, and the `call` of
 * its call_started / call_ended / call_analyzed webhooks), mapped to NormalizedCall: the one place
 * where Retell's field names meet ours (docs/voice-provider.md). Field names follow Retell's
 * published API (retell-typescript-sdk, generated from its OpenAPI spec). No I/O here.
 *
 * Timed lines, checked against RetellAI/retell-typescript-sdk src/resources/call.ts at
 * b274013 (2026-07-31): `transcript_object[]` is {role: 'agent' | 'user' | 'transfer_target',
 * content, words: [{word, start, end}]}, word times in seconds of audio from the call's start
 * ("relative audio time, not wall time"; "not guaranteed to be accurate"); a line runs from its
 * first word's start to its last word's end. `call_analysis.user_sentiment` is 'Negative' |
 * 'Positive' | 'Neutral' | 'Unknown', kept as sent. `latency.e2e` ({p50, p90, p95, p99, max, min,
 * num}, ms, "from user stops talking to agent start talking") exists too; it is not read: the
 * product measures latency from the lines, the same way for every platform.
 */
import { z } from 'zod';
import type { EndedBy } from '../../../contract/quality';
import {
  boundedObject,
  callTimeProblem,
  firstIssue,
  httpUrlOrNull,
  idLike,
  LIMITS,
  looseText,
  MAX_CALL_SECONDS,
  msOfSeconds,
  numberLike,
  precisionOfLines,
  storedObject,
  text,
} from './payload-fields';
import {
  NOTHING_STORED,
  type NormalizedCall,
  type NormalizedCallStatus,
  type NormalizedConversation,
  type NormalizedTranscriptEntry,
  type StoredPayloadReading,
} from './types';
import { answeredBy, type EndedReasonReading, plainTranscript } from './vapi-payload';

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
          .object({
            role: text(LIMITS.shortText).nullish(),
            content: text(LIMITS.transcriptText).nullish(),
            // Read loosely (wordSpan): a word Retell timed oddly never refuses the call.
            words: z.unknown().optional(),
          })
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

/**
 * How a Retell call ended, read from its `disconnection_reason`: every value of the
 * SDK's enum is named here, with its reason in docs/voice-provider.md §6 (the table there matches
 * this one). A call Retell reports as `not_connected` or `error` failed whatever its reason.
 */
const connected: EndedReasonReading = { status: 'completed', answeredBy: null, error: false };
const transferred: EndedReasonReading = { status: 'transferred', answeredBy: null, error: false };
const neverConnected: EndedReasonReading = { status: 'failed', answeredBy: null, error: false };
const fault: EndedReasonReading = { status: 'failed', answeredBy: null, error: true };

const RETELL_DISCONNECTION_REASONS: Record<string, EndedReasonReading> = {
  user_hangup: connected,
  agent_hangup: connected,
  // Limits the agency set: the call was connected and ended on purpose.
  inactivity: connected,
  max_duration_reached: connected,
  voicemail_reached: { status: 'completed', answeredBy: 'voicemail', error: false },
  // A phone menu answered, not a person: connected, and told apart from "Reached a person".
  ivr_reached: { status: 'completed', answeredBy: 'ivr', error: false },
  // The caller hung up while being transferred: the call happened, the transfer did not.
  transfer_cancelled: connected,
  // Stopped from Retell's dashboard or API once under way (a call never connected is not_connected).
  manual_stopped: connected,

  call_transfer: transferred,
  transfer_bridged: transferred,
  // A person took the call over from the agent: a hand-over.
  call_take_over: transferred,

  dial_no_answer: { status: 'failed', answeredBy: 'no-answer', error: false },
  dial_busy: neverConnected,
  user_declined: neverConnected,

  dial_failed: fault,
  invalid_destination: fault,
  telephony_provider_permission_denied: fault,
  telephony_provider_unavailable: fault,
  sip_routing_error: fault,
  marked_as_spam: fault,
  scam_detected: fault,
  concurrency_limit_reached: fault,
  no_concurrency_fallback: fault,
  no_valid_payment: fault,
  registered_call_timeout: fault,
  error_llm_websocket_open: fault,
  error_llm_websocket_lost_connection: fault,
  error_llm_websocket_runtime: fault,
  error_llm_websocket_corrupt_payload: fault,
  error_no_audio_received: fault,
  error_asr: fault,
  error_retell: fault,
  error_unknown: fault,
  error_user_not_joined: fault,
};

/** Reads a `disconnection_reason` (lower case); an unknown `error_…` is a fault, anything else null. */
export function readRetellDisconnection(reason: string): EndedReasonReading | null {
  return RETELL_DISCONNECTION_REASONS[reason] ?? (reason.startsWith('error_') ? fault : null);
}

/**
 * registered/ongoing: active; not_connected and error: failed (it never connected, or broke);
 * ended: by its disconnection reason (none: completed; one we do not know: unknown).
 */
export function mapRetellStatus(call: RetellCall): NormalizedCallStatus {
  const status = (call.call_status ?? '').toLowerCase();
  const reason = (call.disconnection_reason ?? '').toLowerCase();
  if (status === 'registered' || status === 'ongoing') return 'active';
  if (status === 'not_connected' || status === 'error') return 'failed';
  if (reason) return readRetellDisconnection(reason)?.status ?? 'unknown';
  if (status === 'ended') return 'completed';
  return 'unknown';
}

/** A line's first word's start and last word's end, in ms; null when either is missing or odd. */
export function wordSpan(words: unknown): { startMs: number; endMs: number } | null {
  if (!Array.isArray(words) || words.length === 0) return null;
  const first: unknown = words[0];
  const last: unknown = words[words.length - 1];
  const at = (word: unknown, key: 'start' | 'end') =>
    // Any object: a missing key reads undefined, which msOfSeconds answers with null.
    word !== null && typeof word === 'object' ? msOfSeconds((word as Record<string, unknown>)[key]) : null;
  const startMs = at(first, 'start');
  const endMs = at(last, 'end');
  return startMs !== null && endMs !== null && endMs >= startMs ? { startMs, endMs } : null;
}

export function mapRetellTranscript(call: RetellCall): NormalizedTranscriptEntry[] | null {
  if (call.transcript_object) {
    const entries: NormalizedTranscriptEntry[] = [];
    for (const t of call.transcript_object) {
      const line = (t.content ?? '').trim();
      if (!line) continue;
      // The transfer target is the person the agent handed over to: on our side of the call.
      const entry: NormalizedTranscriptEntry = {
        role: (t.role ?? '').toLowerCase() === 'user' ? 'user' : 'agent',
        text: line,
      };
      const span = wordSpan(t.words);
      if (span) Object.assign(entry, span);
      entries.push(entry);
    }
    return entries;
  }
  return call.transcript ? plainTranscript(call.transcript, { agent: 'agent', user: 'user' }) : null;
}

/**
 * Who ended the call, from its `disconnection_reason` (lower case): the caller or the agent hung
 * up; a transfer (call_transfer, and the reasons read as transferred above: transfer_bridged,
 * call_take_over) hands the caller over; any other reason is the system's (a limit, voicemail, a
 * dial failure, an error); none sent: unknown.
 */
export function retellEndedBy(reason: string): EndedBy {
  if (!reason) return 'unknown';
  if (reason === 'user_hangup') return 'caller';
  if (reason === 'agent_hangup') return 'agent';
  if (readRetellDisconnection(reason)?.status === 'transferred') return 'transfer';
  return 'system';
}

/** Word precision when every line has its words' times (the plain-text transcript has none). */
export function retellConversation(
  call: RetellCall,
  transcript: readonly NormalizedTranscriptEntry[] | null,
): NormalizedConversation {
  return {
    precision: call.transcript_object && transcript ? precisionOfLines(transcript, 'word') : 'approx',
    endedBy: retellEndedBy((call.disconnection_reason ?? '').toLowerCase()),
    sentiment: call.call_analysis?.user_sentiment?.trim() || null,
  };
}

/** VoiceProvider.readStoredPayload for Retell: a stored call keeps its transcript_object. */
export function readRetellStoredPayload(raw: unknown): StoredPayloadReading {
  try {
    const parsed = retellCallSchema.safeParse(storedObject(raw));
    if (!parsed.success) return NOTHING_STORED;
    const transcript = mapRetellTranscript(parsed.data);
    return { transcript, conversation: retellConversation(parsed.data, transcript) };
  } catch {
    return NOTHING_STORED;
  }
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
    // A call that never connected has no start: it is dated by its end (our clock only as a last resort).
    createdAt: call.start_timestamp ?? call.end_timestamp ?? now,
    recordingUrl: httpUrlOrNull(call.recording_url),
    transcript,
    isProxy: false,
    priceUsd: cents == null ? null : cents / 100,
    ...(transcript ? { conversation: retellConversation(call, transcript) } : {}),
    insights: {
      summary: analysis?.call_summary ?? null,
      answeredBy:
        analysis?.in_voicemail === true
          ? 'voicemail'
          : (readRetellDisconnection(reason)?.answeredBy ?? answeredBy(transcript)),
      endedBy: reason === 'user_hangup' ? 'user' : reason === 'agent_hangup' ? 'assistant' : null,
      errorMessage: readRetellDisconnection(reason)?.error ? reason : null,
      dispositionTag:
        analysis?.call_successful === true
          ? 'successful'
          : analysis?.call_successful === false
            ? 'unsuccessful'
            : null,
      // Retell's own verdicts beside the agent's custom analysis fields, for outcome rules.
      analysis: analysis
        ? boundedObject({
            ...(custom && typeof custom === 'object' && !Array.isArray(custom) ? custom : {}),
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
  // The time the call is dated by (its start, else its end) must be a plausible one.
  const field = result.data.start_timestamp == null ? 'end_timestamp' : 'start_timestamp';
  const problem = callTimeProblem(result.data[field] ?? null, now);
  if (problem) return { success: false, message: `${field}: ${problem}` };
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
