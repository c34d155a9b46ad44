/**
 * Vapi's call object (GET /call, GET /call/{id}) and its end-of-call-report server message, mapped
 * to NormalizedCall: the one place where Vapi's field names meet ours (docs/voice-provider.md).
 * Field names follow Vapi's published API (server-sdk-typescript, generated from its OpenAPI
 * definition): Call, Artifact, Analysis, ServerMessageEndOfCallReport. No I/O here.
 */
import { z } from 'zod';
import {
  LIMITS,
  MAX_CALL_PRICE_USD,
  boundedObject,
  callTimeProblem,
  firstIssue,
  httpUrlOrNull,
  idLike,
  looseObject,
  looseText,
  numberLike,
  text,
} from './payload-fields';
import type { NormalizedCall, NormalizedCallStatus, NormalizedTranscriptEntry } from './types';

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

const FAILED_REASON = /error|failed|fault|did-not-answer|busy|rejected|invalid|not-found|timed-out-before/;

/** Not ended yet: active. Ended: forwarded is a transfer; errors, no answer and busy failed. */
export function mapVapiStatus(call: VapiCall): NormalizedCallStatus {
  const status = (call.status ?? '').toLowerCase();
  const reason = (call.endedReason ?? '').toLowerCase();
  if (status && status !== 'ended' && !reason) return 'active';
  if (!status && !reason && !call.endedAt) return 'active';
  if (reason.includes('forwarded')) return 'transferred';
  if (FAILED_REASON.test(reason)) return 'failed';
  return 'completed';
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

function number(value: { number?: string | null } | null | undefined): string {
  return (value?.number ?? '').trim();
}

/**
 * Who picked up, in the words the outcome rules use (human, voicemail, no-answer): Vapi says
 * voicemail and no answer in its ended reason; a caller's words in the transcript mean a person.
 */
export function answeredBy(reason: string, transcript: NormalizedTranscriptEntry[] | null): string | null {
  if (reason === 'voicemail' || reason === 'voicemail_reached') return 'voicemail';
  if (reason.includes('did-not-answer') || reason === 'dial_no_answer') return 'no-answer';
  if (transcript?.some((line) => line.role === 'user')) return 'human';
  return null;
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
    insights: {
      summary: call.analysis?.summary ?? call.summary ?? null,
      answeredBy: answeredBy(reason, transcript),
      endedBy: reason.startsWith('customer-ended')
        ? 'user'
        : reason.startsWith('assistant-ended') || reason.startsWith('assistant-said')
          ? 'assistant'
          : null,
      errorMessage: FAILED_REASON.test(reason) ? reason : null,
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
  const merged: Record<string, unknown> = { ...(call as Record<string, unknown>) };
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
