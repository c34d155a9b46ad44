/**
 * Vapi's call object (GET /call, GET /call/{id}) and its end-of-call-report server message, mapped
 * to NormalizedCall: the one place where Vapi's field names meet ours (docs/voice-provider.md).
 * Field names follow Vapi's published API (server-sdk-typescript, generated from its OpenAPI
 * definition): Call, Artifact, Analysis, ServerMessageEndOfCallReport. No I/O here.
 *
 * Timed lines, checked against VapiAI/server-sdk-typescript at 7ec0a68 (2026-06-25),
 * src/api/types: Artifact.messages is UserMessage | SystemMessage | BotMessage | ToolCallMessage |
 * ToolCallResultMessage; UserMessage and BotMessage carry `time` and `endTime` (epoch ms),
 * `secondsFromStart` and an optional `duration` (documented as seconds, sent as ms: Vapi's own
 * example has endTime − time = duration = 320), SystemMessage `time` and `secondsFromStart` only.
 * A line starts at secondsFromStart and lasts endTime − time. Artifact.performanceMetrics exists
 * (PerformanceMetrics: turnLatencies[] of TurnLatency {modelLatency, voiceLatency,
 * transcriberLatency, endpointingLatency, turnLatency}, the averages of each, numUserInterrupted,
 * numAssistantInterrupted); it is not read: the product measures from the lines, the same way for
 * every platform. Vapi gives no sentiment label of its own (analysis.structuredData is whatever
 * the agency asked for), so none is read.
 */
import { z } from 'zod';
import type { EndedBy } from '../../../contract/quality';
import {
  boundedObject,
  callTimeProblem,
  finiteOrNull,
  firstIssue,
  httpUrlOrNull,
  idLike,
  isProviderId,
  LIMITS,
  looseObject,
  looseText,
  MAX_CALL_PRICE_USD,
  MAX_CALL_SECONDS,
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

const numberObject = z
  .object({ number: text(LIMITS.phone).nullish() })
  .passthrough()
  .nullish();

/** Artifact.messages items: user and bot lines, plus system and tool lines we leave out. */
const vapiMessage = z
  .object({
    role: text(LIMITS.shortText).nullish(),
    message: text(LIMITS.transcriptText).nullish(),
    time: z.number().nullish(),
    // Read loosely (messageSpan): a line Vapi timed oddly never refuses the call.
    endTime: z.unknown().optional(),
    secondsFromStart: z.unknown().optional(),
  })
  .passthrough();

const artifactSchema = z
  .object({
    recordingUrl: text(LIMITS.url).nullish(),
    transcript: text(LIMITS.transcriptText * 10).nullish(),
    messages: z.array(vapiMessage).max(LIMITS.transcriptEntries).nullish(),
  })
  .passthrough()
  .nullish();

const analysisSchema = z
  .object({
    summary: looseText(LIMITS.summary),
    structuredData: looseObject,
    successEvaluation: z.unknown().optional(),
  })
  .passthrough()
  .nullish();

/** The fields of Vapi's Call that we read; anything else is accepted and ignored. */
export const vapiCallSchema = z
  .object({
    id: idLike,
    type: text(LIMITS.shortText).nullish(),
    status: text(LIMITS.shortText).nullish(),
    endedReason: text(LIMITS.shortText * 2).nullish(),
    createdAt: text(LIMITS.timestamp).nullish(),
    startedAt: text(LIMITS.timestamp).nullish(),
    endedAt: text(LIMITS.timestamp).nullish(),
    cost: numberLike(MAX_CALL_PRICE_USD, `A call's cost is between $0 and $${MAX_CALL_PRICE_USD}`).nullish(),
    assistantId: z.string().trim().max(LIMITS.id).nullish(),
    // A saved number of the account (GET /phone-number/{id}); `phoneNumber` is a transient one.
    // An id we cannot put in a path is read as absent, not as a reason to refuse the call.
    phoneNumberId: z
      .unknown()
      .transform((v) => (typeof v === 'string' && isProviderId(v.trim()) ? v.trim() : null))
      .optional(),
    customer: numberObject,
    phoneNumber: numberObject,
    analysis: analysisSchema,
    artifact: artifactSchema,
    // Older calls carry these at the top level rather than in the artifact.
    recordingUrl: text(LIMITS.url).nullish(),
    summary: looseText(LIMITS.summary),
  })
  .passthrough();
export type VapiCall = z.infer<typeof vapiCallSchema>;

/**
 * How a Vapi call ended, read from its `endedReason`: every value of the SDK's
 * CallEndedReason is decided here, each named below or by its documented family, and written down
 * with its reason in docs/voice-provider.md §5 (the table there matches this one).
 * - completed: the line was connected and the call ended normally;
 * - transferred: the caller was handed to a person or another number;
 * - failed without an error: it never connected and nothing broke (no answer, busy, cancelled);
 * - failed with the reason as error: a fault of Vapi, a provider behind it, the set-up or the line.
 */
export interface EndedReasonReading {
  status: NormalizedCallStatus;
  /** Who picked up when the reason says so (voicemail, no-answer); null: the reason does not say. */
  answeredBy: string | null;
  error: boolean;
}

const connected: EndedReasonReading = { status: 'completed', answeredBy: null, error: false };
const transferred: EndedReasonReading = { status: 'transferred', answeredBy: null, error: false };
const neverConnected: EndedReasonReading = { status: 'failed', answeredBy: null, error: false };
const fault: EndedReasonReading = { status: 'failed', answeredBy: null, error: true };

const VAPI_ENDED_REASONS: Record<string, EndedReasonReading> = {
  'assistant-ended-call': connected,
  'assistant-said-end-call-phrase': connected,
  'assistant-ended-call-with-hangup-task': connected,
  'assistant-ended-call-after-message-spoken': connected,
  'customer-ended-call': connected,
  // The caller hung up around a warm transfer: the call happened, the transfer did not.
  'customer-ended-call-before-warm-transfer': connected,
  'customer-ended-call-after-warm-transfer-attempt': connected,
  'customer-ended-call-during-transfer': connected,
  // Limits the agency set: the call was connected and ended on purpose.
  'exceeded-max-duration': connected,
  'silence-timed-out': connected,
  voicemail: { status: 'completed', answeredBy: 'voicemail', error: false },
  // The carrier's own "the call ended" (Twilio, SIP, Vonage): connected, then hung up.
  'call.in-progress.twilio-completed-call': connected,
  'call.in-progress.sip-completed-call': connected,
  'vonage-completed': connected,
  'vonage-disconnected': connected,
  'phone-call-provider-closed-websocket': connected,
  // A hook spoke to the caller and ended the call: the caller was on the line.
  'call.ringing.hook-executed-say': connected,
  'call.ending.hook-executed-say': connected,

  'assistant-forwarded-call': transferred,
  'assistant-request-returned-forwarding-phone-number': transferred,
  'call.ringing.hook-executed-transfer': transferred,
  'call.ending.hook-executed-transfer': transferred,

  'customer-did-not-answer': { status: 'failed', answeredBy: 'no-answer', error: false },
  'customer-busy': neverConnected,
  'manually-canceled': neverConnected,
  'scheduled-call-deleted': neverConnected,
  'call-deleted': neverConnected,
  'twilio-reported-customer-misdialed': neverConnected,
  'call.ringing.sip-inbound-caller-hungup-before-call-connect': neverConnected,
  'vonage-rejected': neverConnected,
  'customer-did-not-give-microphone-permission': neverConnected,

  // Faults whose names do not say "error": the call could not go on (or start) as set up.
  'assistant-not-valid': fault,
  'assistant-not-found': fault,
  'assistant-join-timed-out': fault,
  'assistant-request-returned-no-assistant': fault,
  'assistant-request-returned-invalid-assistant': fault,
  'worker-shutdown': fault,
  'phone-call-provider-bypass-enabled-but-no-call-received': fault,
  'twilio-failed-to-connect-call': fault,
  'vonage-failed-to-connect-call': fault,
  // The transfer target was busy or did not answer: the hand-over the caller needed failed.
  'call.forwarding.operator-busy': fault,
  'call.forwarding.no-answer': fault,
};

/**
 * The error families of the enum (pipeline-error-…, call.start.error-…, call.in-progress.error-…,
 * call.ringing.error-…, call-start-error-…, assistant-request-failed/-returned-error…): a reason
 * not named above that says error, failed or fault is one of them.
 */
const FAULT_WORDS = /error|failed|fault/;

/** Reads an `endedReason` (lower case); null for a reason we do not know (the status is then unknown). */
export function readVapiEndedReason(reason: string): EndedReasonReading | null {
  const named = VAPI_ENDED_REASONS[reason];
  if (named) return named;
  return FAULT_WORDS.test(reason) ? fault : null;
}

/** Vapi's CallStatus values for a call not ended yet. */
const ACTIVE_STATUSES = new Set(['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding']);

/**
 * An ended reason decides once given. Without one: scheduled … forwarding are active, `ended` is
 * completed; `not-found` and `deletion-failed` speak of the record, not the call: unknown.
 */
export function mapVapiStatus(call: VapiCall): NormalizedCallStatus {
  const status = (call.status ?? '').toLowerCase();
  const reason = (call.endedReason ?? '').toLowerCase();
  if (reason) return readVapiEndedReason(reason)?.status ?? 'unknown';
  if (ACTIVE_STATUSES.has(status)) return 'active';
  if (status === 'ended') return 'completed';
  if (!status && !call.endedAt) return 'active';
  return 'unknown';
}

const parseTime = (value: string | null | undefined) => {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
};

function mapRole(role: string | null | undefined): string | null {
  const r = (role ?? '').toLowerCase();
  if (r === 'user') return 'user';
  if (r === 'bot' || r === 'assistant') return 'agent';
  return null; // system prompts, tool calls and their results are not what was said
}

type VapiMessage = z.infer<typeof vapiMessage>;

/** A message's start (secondsFromStart) and end (its start plus endTime − time), in whole ms. */
export function messageSpan(m: VapiMessage): { startMs: number; endMs: number } | null {
  const fromStart = finiteOrNull(m.secondsFromStart);
  const time = finiteOrNull(m.time);
  const endTime = finiteOrNull(m.endTime);
  if (fromStart === null || time === null || endTime === null) return null;
  if (fromStart < 0 || fromStart > MAX_CALL_SECONDS || endTime < time) return null;
  const startMs = Math.round(fromStart * 1000);
  const lasting = Math.round(endTime - time);
  return lasting <= MAX_CALL_SECONDS * 1000 ? { startMs, endMs: startMs + lasting } : null;
}

/** Artifact.messages, else the plain transcript ("AI: …" / "User: …" lines). */
export function mapVapiTranscript(call: VapiCall): NormalizedTranscriptEntry[] | null {
  const messages = call.artifact?.messages;
  if (messages) {
    const entries: NormalizedTranscriptEntry[] = [];
    for (const m of messages) {
      const role = mapRole(m.role);
      const line = (m.message ?? '').trim();
      if (!role || !line) continue;
      const entry: NormalizedTranscriptEntry = { role, text: line };
      if (typeof m.time === 'number' && Number.isFinite(m.time)) {
        const at = new Date(m.time);
        if (!Number.isNaN(at.getTime())) entry.timestamp = at.toISOString();
      }
      const span = messageSpan(m);
      if (span) Object.assign(entry, span);
      entries.push(entry);
    }
    return entries;
  }
  const plain = call.artifact?.transcript;
  if (!plain) return null;
  return plainTranscript(plain, { ai: 'agent', assistant: 'agent', bot: 'agent', user: 'user' });
}

/** "Speaker: text" lines into entries; unknown speakers read as the caller. */
export function plainTranscript(text: string, roles: Record<string, string>): NormalizedTranscriptEntry[] {
  const entries: NormalizedTranscriptEntry[] = [];
  for (const raw of text.split('\n').slice(0, LIMITS.transcriptEntries)) {
    const match = /^\s*([A-Za-z ]{1,20}):\s*(.*)$/.exec(raw);
    const line = (match ? match[2] : raw).trim();
    if (!line) continue;
    const role = match ? (roles[match[1].trim().toLowerCase()] ?? 'user') : 'user';
    entries.push({ role, text: line.slice(0, LIMITS.transcriptText) });
  }
  return entries;
}

/** The ended reasons that say the assistant hung up (CallEndedReason, SDK at 7ec0a68). */
const AGENT_ENDED = new Set([
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-after-message-spoken',
  'assistant-ended-call-with-hangup-task',
]);

/**
 * Who ended the call, from its `endedReason` (lower case). The customer hanging up is the caller's
 * doing, also around a warm transfer (customer-ended-call-before-warm-transfer,
 * -after-warm-transfer-attempt, -during-transfer); the assistant's four hang-ups are the agent's;
 * a forward (assistant-forwarded-call, and the reasons read as transferred above) is a transfer;
 * anything else (a limit, voicemail, no answer, an error) is the system's; none sent: unknown.
 */
export function vapiEndedBy(reason: string): EndedBy {
  if (!reason) return 'unknown';
  if (reason.startsWith('customer-ended-call')) return 'caller';
  if (AGENT_ENDED.has(reason)) return 'agent';
  if (readVapiEndedReason(reason)?.status === 'transferred') return 'transfer';
  return 'system';
}

/** Message precision when every line of artifact.messages is timed (the plain transcript is not). */
export function vapiConversation(
  call: VapiCall,
  transcript: readonly NormalizedTranscriptEntry[] | null,
): NormalizedConversation {
  return {
    precision: call.artifact?.messages && transcript ? precisionOfLines(transcript, 'message') : 'approx',
    endedBy: vapiEndedBy((call.endedReason ?? '').toLowerCase()),
    sentiment: null,
  };
}

/** VoiceProvider.readStoredPayload for Vapi: a stored call keeps its artifact (messages and all). */
export function readVapiStoredPayload(raw: unknown): StoredPayloadReading {
  try {
    const parsed = vapiCallSchema.safeParse(storedObject(raw));
    if (!parsed.success) return NOTHING_STORED;
    const transcript = mapVapiTranscript(parsed.data);
    return { transcript, conversation: vapiConversation(parsed.data, transcript) };
  } catch {
    return NOTHING_STORED;
  }
}

function number(value: { number?: string | null } | null | undefined): string {
  return (value?.number ?? '').trim();
}

/** A caller's words in the transcript mean a person picked up; the ended reason says the rest. */
export function answeredBy(transcript: NormalizedTranscriptEntry[] | null): string | null {
  return transcript?.some((line) => line.role === 'user') ? 'human' : null;
}

export function mapVapiCall(call: VapiCall, now: number): NormalizedCall {
  const started = parseTime(call.startedAt);
  const ended = parseTime(call.endedAt);
  const reason = (call.endedReason ?? '').toLowerCase();
  const customer = number(call.customer);
  const ours = number(call.phoneNumber);
  // Who called whom: an inbound call comes from the customer to our number, an outbound the reverse.
  const inbound = (call.type ?? '').toLowerCase().startsWith('inbound');
  const success = call.analysis?.successEvaluation;
  const transcript = mapVapiTranscript(call);
  return {
    providerCallId: call.id,
    fromNumber: inbound ? customer : ours,
    toNumber: inbound ? ours : customer,
    durationSeconds:
      started !== null && ended !== null && ended >= started ? Math.round((ended - started) / 1000) : 0,
    status: mapVapiStatus(call),
    pathwayId: call.assistantId?.trim() || null,
    createdAt: parseTime(call.createdAt) ?? started ?? now,
    recordingUrl: httpUrlOrNull(call.artifact?.recordingUrl ?? call.recordingUrl),
    transcript,
    isProxy: false,
    priceUsd: call.cost ?? null,
    ...(transcript ? { conversation: vapiConversation(call, transcript) } : {}),
    insights: {
      summary: call.analysis?.summary ?? call.summary ?? null,
      answeredBy: readVapiEndedReason(reason)?.answeredBy ?? answeredBy(transcript),
      endedBy: reason.startsWith('customer-ended')
        ? 'user'
        : reason.startsWith('assistant-ended') || reason.startsWith('assistant-said')
          ? 'assistant'
          : null,
      errorMessage: readVapiEndedReason(reason)?.error ? reason : null,
      // Vapi's success evaluation is what its rubric says (true/false, a score, a grade): a tag.
      dispositionTag:
        success === undefined || success === null ? null : String(success).slice(0, LIMITS.tag) || null,
      analysis: boundedObject(call.analysis?.structuredData ?? null),
      variables: null,
    },
  };
}

export type ParsedVapiCall = { success: true; call: NormalizedCall } | { success: false; message: string };

export function parseVapiCall(json: unknown, now: number = Date.now()): ParsedVapiCall {
  const result = vapiCallSchema.safeParse(json);
  if (!result.success) return { success: false, message: firstIssue(result.error) };
  for (const field of ['createdAt', 'startedAt'] as const) {
    const problem = callTimeProblem(parseTime(result.data[field]), now);
    if (problem) return { success: false, message: `${field}: ${problem}` };
  }
  return { success: true, call: mapVapiCall(result.data, now) };
}

export const vapiListSchema = z.array(z.unknown()).max(10_000);

/** GET /phone-number/{id}: its digits (`number`; a SIP number has none). */
export const vapiPhoneNumberSchema = z.object({ number: text(LIMITS.phone).nullish() });

export const vapiAssistantSchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.pathwayName).nullish(),
});

/**
 * An end-of-call report as one call object: the report's own fields (artifact, analysis, ended
 * reason, cost, times, customer, phone number) over the `call` it names.
 */
export function callOfReport(message: Record<string, unknown>): unknown {
  const call = message.call;
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return null;
  const merged: Record<string, unknown> = { ...call };
  for (const key of [
    'artifact',
    'analysis',
    'endedReason',
    'cost',
    'startedAt',
    'endedAt',
    'customer',
    'phoneNumber',
  ])
    if (message[key] !== undefined && message[key] !== null) merged[key] = message[key];
  // A report is sent once the call has ended, whatever status its call snapshot still shows.
  merged.status = 'ended';
  return merged;
}
