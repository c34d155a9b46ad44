/**
 * Bland's call-details object (GET /v1/calls/{id}, list items, and the post-call webhook body) and
 * its mapping to NormalizedCall: the one place where Bland's field names meet ours (DESIGN §7).
 * Validation is lenient about fields we do not use (Bland adds fields freely) and strict, with
 * length caps, about the ones we store. No I/O here.
 *
 * Timed lines: the post-call `transcripts[]` carry only the clock time each line was
 * logged (`created_at`), no durations, so they are `approx`. Bland's corrected transcript, read
 * from the recording, times each segment: GET /v1/calls/{call_id}/correct answers {status,
 * message, corrected: [{start, end, text, speaker, speaker_label, confidence}], aligned (deprecated)}
 * with start and end in seconds from the call's start, `speaker` a diarization number (1, 2, …,
 * which says nothing of who spoke) and `speaker_label` "user" or "assistant" (docs.bland.ai
 * api-v1/get/calls-corrected-transcript, as kept in CINTELLILABS/docs at 16874670ce6d,
 * 2026-08-09; specs/bland/documented-examples.json `corrected-transcript`). The same segments come
 * as `corrected_transcript` in Bland's delayed post-call webhook (its tutorials/post-call-webhooks
 * example, `post-call-webhook-delayed` there). A segment list is used whole or not at all: a segment
 * without a label we know, or with odd times, leaves the post-call transcript in place.
 * `call_ended_by` is documented as ASSISTANT ("the agent ended the call") or USER ("the user
 * ended the call"), api-v1/get/calls-id at the same commit; Bland documents no sentiment label.
 */
import { z } from 'zod';
import type { EndedBy } from '../../../contract/quality';
import {
  booleanLike,
  boundedObject,
  callTimeProblem,
  firstIssue,
  httpUrlOrNull,
  ID_MESSAGE,
  idLike,
  isProviderId,
  LIMITS,
  looseObject,
  looseText,
  MAX_CALL_PRICE_USD,
  MAX_CALL_SECONDS,
  msOfSeconds,
  numberLike,
  storedObject,
  text,
} from './payload-fields';
import {
  type CallInsights,
  NOTHING_STORED,
  type NormalizedCall,
  type NormalizedCallStatus,
  type NormalizedConversation,
  type NormalizedTranscriptEntry,
  type StoredPayloadReading,
} from './types';

/** Bland's ids are the providers' id shape (payload-fields.ts). */
export const isBlandId = isProviderId;

export const blandTranscriptEntrySchema = z.object({
  id: z.union([z.string().max(LIMITS.id), z.number()]).nullish(),
  created_at: text(LIMITS.timestamp).nullish(),
  text: text(LIMITS.transcriptText).nullish(),
  user: text(LIMITS.shortText).nullish(),
});

/** The fields of Bland's call object that we read; anything else is accepted and ignored. */
export const blandCallSchema = z.object({
  call_id: idLike,
  to: text(LIMITS.phone).nullish(),
  from: text(LIMITS.phone).nullish(),
  call_length: numberLike(
    MAX_CALL_SECONDS / 60,
    'A call lasts between 0 and 24 hours (1,440 minutes)',
  ).nullish(),
  corrected_duration: numberLike(
    MAX_CALL_SECONDS,
    'A call lasts between 0 and 24 hours (86,400 seconds)',
  ).nullish(),
  created_at: text(LIMITS.timestamp).nullish(),
  started_at: text(LIMITS.timestamp).nullish(),
  completed: booleanLike.nullish(),
  queue_status: text(LIMITS.shortText).nullish(),
  status: text(LIMITS.shortText).nullish(),
  recording_url: text(LIMITS.url).nullish(),
  price: numberLike(MAX_CALL_PRICE_USD, `A call's price is between $0 and $${MAX_CALL_PRICE_USD}`).nullish(),
  pathway_id: z
    .string()
    .trim()
    .max(LIMITS.id)
    .refine((v) => v === '' || isProviderId(v), ID_MESSAGE)
    .nullish(),
  transferred_to: text(LIMITS.phone).nullish(),
  is_proxy_agent_call: booleanLike.nullish(),
  transcripts: z.array(blandTranscriptEntrySchema).max(LIMITS.transcriptEntries).nullish(),
  summary: looseText(LIMITS.summary),
  answered_by: looseText(LIMITS.shortText),
  call_ended_by: looseText(LIMITS.shortText),
  error_message: looseText(LIMITS.errorMessage),
  disposition_tag: looseText(LIMITS.tag),
  analysis: looseObject,
  variables: looseObject,
  // The delayed webhook's corrected segments; read loosely (mapBlandCorrected): never refuses a call.
  corrected_transcript: z.unknown().optional(),
});
export type BlandCallPayload = z.infer<typeof blandCallSchema>;

/** A field the fast reader leaves to the schema (see readBlandCallFast). */
const UNSURE: unique symbol = Symbol('unsure');
type Read<T> = T | typeof UNSURE;

const textOrUnsure =
  (max: number) =>
  (v: unknown): Read<string> =>
    typeof v === 'string' && v.length <= max ? v : UNSURE;

/** `.nullish()`: absent and null pass as they are. */
const nullish =
  <T>(read: (v: unknown) => Read<T>) =>
  (v: unknown): Read<T | null | undefined> =>
    v === undefined || v === null ? v : read(v);

/** numberLike's reading of a value it accepts. */
const numberOrUnsure =
  (max: number) =>
  (v: unknown): Read<number> => {
    let n: number;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string') {
      const trimmed = v.trim();
      if (trimmed.length > 40 || trimmed === '') return UNSURE;
      n = Number(trimmed);
    } else return UNSURE;
    return Number.isFinite(n) && n >= 0 && n <= max ? n : UNSURE;
  };

const booleanOrUnsure = (v: unknown): Read<boolean> =>
  typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : UNSURE;

function idOrUnsure(v: unknown): Read<string> {
  let id: string;
  if (typeof v === 'string') {
    id = v.trim();
    if (id.length < 1 || id.length > LIMITS.id) return UNSURE;
  } else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) id = String(v);
  else return UNSURE;
  return isProviderId(id) ? id : UNSURE;
}

function pathwayIdOrUnsure(v: unknown): Read<string> {
  if (typeof v !== 'string') return UNSURE;
  const id = v.trim();
  return id.length <= LIMITS.id && (id === '' || isProviderId(id)) ? id : UNSURE;
}

const looseTextOf = (max: number) => (v: unknown) =>
  v === undefined ? undefined : typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null;

const looseObjectOf = (v: unknown) =>
  v === undefined ? undefined : v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

type FieldReader = (v: unknown) => unknown;

/** blandTranscriptEntrySchema, field by field, in its order. */
const TRANSCRIPT_ENTRY_FIELDS: [string, FieldReader][] = [
  [
    'id',
    nullish((v) =>
      (typeof v === 'string' && v.length <= LIMITS.id) || (typeof v === 'number' && !Number.isNaN(v))
        ? v
        : UNSURE,
    ),
  ],
  ['created_at', nullish(textOrUnsure(LIMITS.timestamp))],
  ['text', nullish(textOrUnsure(LIMITS.transcriptText))],
  ['user', nullish(textOrUnsure(LIMITS.shortText))],
];

/** Reads `fields` of `source` into a new object as a zod object does: a key present is kept. */
function readFields(source: Record<string, unknown>, fields: [string, FieldReader][]) {
  const out: Record<string, unknown> = {};
  for (const [key, read] of fields) {
    const value = read(source[key]);
    if (value === UNSURE) return null;
    if (value !== undefined || key in source) out[key] = value;
  }
  return out;
}

function transcriptsOrUnsure(v: unknown): Read<unknown[]> {
  if (!Array.isArray(v) || v.length > LIMITS.transcriptEntries) return UNSURE;
  const entries: unknown[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const item: unknown = v[i];
    const entry = isRecord(item) ? readFields(item, TRANSCRIPT_ENTRY_FIELDS) : null;
    if (!entry) return UNSURE;
    entries[i] = entry;
  }
  return entries;
}

/** blandCallSchema, field by field, in its order (bland-payload.test.ts holds the two equal). */
const CALL_FIELDS: [string, FieldReader][] = [
  ['call_id', idOrUnsure],
  ['to', nullish(textOrUnsure(LIMITS.phone))],
  ['from', nullish(textOrUnsure(LIMITS.phone))],
  ['call_length', nullish(numberOrUnsure(MAX_CALL_SECONDS / 60))],
  ['corrected_duration', nullish(numberOrUnsure(MAX_CALL_SECONDS))],
  ['created_at', nullish(textOrUnsure(LIMITS.timestamp))],
  ['started_at', nullish(textOrUnsure(LIMITS.timestamp))],
  ['completed', nullish(booleanOrUnsure)],
  ['queue_status', nullish(textOrUnsure(LIMITS.shortText))],
  ['status', nullish(textOrUnsure(LIMITS.shortText))],
  ['recording_url', nullish(textOrUnsure(LIMITS.url))],
  ['price', nullish(numberOrUnsure(MAX_CALL_PRICE_USD))],
  ['pathway_id', nullish(pathwayIdOrUnsure)],
  ['transferred_to', nullish(textOrUnsure(LIMITS.phone))],
  ['is_proxy_agent_call', nullish(booleanOrUnsure)],
  ['transcripts', nullish(transcriptsOrUnsure)],
  ['summary', looseTextOf(LIMITS.summary)],
  ['answered_by', looseTextOf(LIMITS.shortText)],
  ['call_ended_by', looseTextOf(LIMITS.shortText)],
  ['error_message', looseTextOf(LIMITS.errorMessage)],
  ['disposition_tag', looseTextOf(LIMITS.tag)],
  ['analysis', looseObjectOf],
  ['variables', looseObjectOf],
  ['corrected_transcript', (v) => v],
];

/**
 * What blandCallSchema answers for a call object whose every field is plainly valid (what Bland
 * sends), without zod: a sync reads ~20,000 of them and the schema's parse was a large part of its
 * CPU time. null as soon as a field is not plainly valid: the caller then asks the
 * schema, which says what is wrong. Never accepts what the schema refuses.
 */
export function readBlandCallFast(json: unknown): BlandCallPayload | null {
  if (!isRecord(json)) return null;
  // The same fields, with the same readings, as blandCallSchema's output type.
  return readFields(json, CALL_FIELDS) as BlandCallPayload | null;
}

/** GET /v1/calls/{call_id}/correct: only `corrected` is read (`aligned` is deprecated). */
export const blandCorrectedAnswerSchema = z
  .object({ status: z.unknown().optional(), corrected: z.unknown().optional() })
  .passthrough();

/**
 * A corrected segment's fields we read, or null when it is not one: start and end numbers, text
 * and speaker_label strings within their caps (or absent). Written out rather than a zod schema:
 * a sync reads ~100,000 segments.
 */
function readCorrectedSegment(
  item: unknown,
): { start: number; end: number; text: string | null; label: string | null } | null {
  if (!isRecord(item)) return null;
  const { start, end, text, speaker_label: label } = item;
  if (typeof start !== 'number' || Number.isNaN(start) || typeof end !== 'number' || Number.isNaN(end))
    return null;
  const optional = (v: unknown, max: number): v is string | null | undefined =>
    v === undefined || v === null || (typeof v === 'string' && v.length <= max);
  if (!optional(text, LIMITS.transcriptText) || !optional(label, LIMITS.shortText)) return null;
  return {
    start,
    end,
    text: text ?? null,
    label: label ?? null,
  };
}

// A Map: a label is the provider's text, and a plain object would answer "constructor" too.
const CORRECTED_ROLES = new Map([
  ['assistant', 'agent'],
  ['user', 'user'],
]);

/** Live-event bodies and their follow-ups, sent to the same webhook URL as finished calls. */
export const blandEventSchema = z.object({
  call_id: idLike.nullish(),
  message: text(LIMITS.eventMessage).nullish(),
  category: text(LIMITS.shortText).nullish(),
  log_level: text(LIMITS.shortText).nullish(),
  event_type: text(LIMITS.shortText).nullish(),
});
export type BlandEvent = z.infer<typeof blandEventSchema>;

export const blandListResponseSchema = z.object({
  total_count: z.number().int().nonnegative().nullish(),
  count: z.number().int().nonnegative().nullish(),
  calls: z.array(z.unknown()).max(10_000),
});

export const blandPathwaySchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.pathwayName).nullish(),
});

const FAILED_STATUSES = new Set(['failed', 'busy', 'no-answer', 'no_answer', 'canceled', 'cancelled']);
const COMPLETED_VALUES = new Set(['complete', 'completed']);

const norm = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();
const isErrorValue = (value: string) => value.endsWith('_error');

/** DESIGN §7: transferred, then active, then failed, then completed; anything else is unknown. */
export function mapBlandStatus(payload: BlandCallPayload): NormalizedCallStatus {
  if (payload.transferred_to?.trim()) return 'transferred';
  const status = norm(payload.status);
  const queue = norm(payload.queue_status);
  // A terminal `status` is evidence of an ended call too: webhook bodies may omit `completed`.
  const ended =
    payload.completed === true ||
    COMPLETED_VALUES.has(queue) ||
    isErrorValue(queue) ||
    FAILED_STATUSES.has(queue) ||
    COMPLETED_VALUES.has(status) ||
    FAILED_STATUSES.has(status) ||
    isErrorValue(status);
  if (!ended) return 'active';
  if (
    FAILED_STATUSES.has(status) ||
    isErrorValue(status) ||
    isErrorValue(queue) ||
    FAILED_STATUSES.has(queue)
  ) {
    return 'failed';
  }
  if (status === 'completed') return 'completed';
  // Older payloads carry no `status`; there the queue state (or the completed flag) is the answer.
  if (!status && (COMPLETED_VALUES.has(queue) || payload.completed === true)) return 'completed';
  return 'unknown';
}

export function mapBlandDuration(payload: BlandCallPayload): number {
  const corrected = payload.corrected_duration;
  if (corrected != null && corrected >= 0) return Math.round(corrected);
  const minutes = payload.call_length;
  if (minutes != null && minutes >= 0) return Math.round(minutes * 60);
  return 0;
}

/**
 * Roles follow SPEC §3 (agent/assistant read as "AI Agent", anything else as "Caller"). Bland's
 * agent-action lines (transfers, tool calls) are the agent's doing, so they are 'agent' too.
 */
function mapRole(user: string | null | undefined): string {
  const u = norm(user);
  if (u === 'user') return 'user';
  if (u === 'assistant' || u === 'robot' || u === 'agent' || u === 'agent-action') return 'agent';
  return u || 'user';
}

export function mapBlandTranscript(payload: BlandCallPayload): NormalizedTranscriptEntry[] | null {
  if (!payload.transcripts) return null;
  const entries: NormalizedTranscriptEntry[] = [];
  for (const t of payload.transcripts) {
    const line = (t.text ?? '').trim();
    if (!line) continue;
    const entry: NormalizedTranscriptEntry = { role: mapRole(t.user), text: line };
    if (t.created_at) entry.timestamp = t.created_at;
    entries.push(entry);
  }
  return entries;
}

/**
 * Corrected segments as transcript lines timed in whole ms, or null when they cannot stand for the
 * call's transcript: not a list, empty, longer than a transcript may be, or any segment without
 * plausible times or without a speaker label we know ("user", "assistant"). Segments with no text
 * are left out.
 */
export function mapBlandCorrected(segments: unknown): NormalizedTranscriptEntry[] | null {
  if (!Array.isArray(segments) || segments.length === 0 || segments.length > LIMITS.transcriptEntries)
    return null;
  const entries: NormalizedTranscriptEntry[] = [];
  for (const item of segments) {
    const segment = readCorrectedSegment(item);
    if (!segment) return null;
    const role = CORRECTED_ROLES.get(norm(segment.label));
    const startMs = msOfSeconds(segment.start);
    const endMs = msOfSeconds(segment.end);
    if (!role || startMs === null || endMs === null || endMs < startMs) return null;
    const line = (segment.text ?? '').trim();
    if (line) entries.push({ role, text: line, startMs, endMs });
  }
  return entries.length > 0 ? entries : null;
}

/**
 * Who ended the call: a transferred call (transferred_to set, or Bland's status says so) is a
 * transfer whoever hung up; else `call_ended_by` ASSISTANT is the agent, USER the caller, any other
 * value the system's; none sent: unknown.
 */
export function blandEndedBy(payload: BlandCallPayload): EndedBy {
  if (payload.transferred_to?.trim() || norm(payload.status) === 'transferred') return 'transfer';
  const by = norm(payload.call_ended_by);
  if (!by) return 'unknown';
  if (by === 'assistant') return 'agent';
  if (by === 'user') return 'caller';
  return 'system';
}

export function blandConversation(
  payload: BlandCallPayload,
  precision: 'segment' | 'approx',
): NormalizedConversation {
  return { precision, endedBy: blandEndedBy(payload), sentiment: null };
}

/**
 * The call with its transcript replaced by corrected segments (precision `segment`) when they are
 * usable (mapBlandCorrected); else the call as it was.
 */
export function withCorrectedTranscript(
  call: NormalizedCall,
  payload: BlandCallPayload,
  segments: unknown,
): NormalizedCall {
  const corrected = mapBlandCorrected(segments);
  if (!corrected) return call;
  return { ...call, transcript: corrected, conversation: blandConversation(payload, 'segment') };
}

/**
 * VoiceProvider.readStoredPayload for Bland: a stored call has lost its `transcripts`, so only a
 * delayed webhook's corrected_transcript gives lines back; the conversation (who ended it) reads
 * from any stored call, `approx` without segments.
 */
export function readBlandStoredPayload(raw: unknown): StoredPayloadReading {
  try {
    const parsed = blandCallSchema.safeParse(storedObject(raw));
    if (!parsed.success) return NOTHING_STORED;
    const corrected = mapBlandCorrected(parsed.data.corrected_transcript);
    return {
      transcript: corrected,
      conversation: blandConversation(parsed.data, corrected ? 'segment' : 'approx'),
    };
  } catch {
    return NOTHING_STORED;
  }
}

/** Bland's timestamps are ISO-like with microseconds; a value without a zone is UTC. */
export function parseBlandTime(value: string | null | undefined): number | null {
  if (!value) return null;
  let s = value.trim();
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) s = `${s.replace(' ', 'T')}Z`;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

export function mapBlandInsights(payload: BlandCallPayload): CallInsights {
  const lower = (v: string | null | undefined) => (v ? v.toLowerCase() : null);
  return {
    summary: payload.summary ?? null,
    answeredBy: lower(payload.answered_by),
    endedBy: lower(payload.call_ended_by),
    errorMessage: payload.error_message ?? null,
    dispositionTag: payload.disposition_tag ?? null,
    analysis: boundedObject(payload.analysis),
    variables: boundedObject(payload.variables),
  };
}

/** `now` is the fallback creation time for a payload that carries none (epoch ms). */
export function mapBlandCall(payload: BlandCallPayload, now: number = Date.now()): NormalizedCall {
  const price = payload.price;
  const transcript = mapBlandTranscript(payload);
  const mapped: NormalizedCall = {
    providerCallId: payload.call_id,
    fromNumber: (payload.from ?? '').trim(),
    toNumber: (payload.to ?? '').trim(),
    durationSeconds: mapBlandDuration(payload),
    status: mapBlandStatus(payload),
    pathwayId: payload.pathway_id?.trim() || null,
    createdAt: parseBlandTime(payload.created_at) ?? parseBlandTime(payload.started_at) ?? now,
    recordingUrl: httpUrlOrNull(payload.recording_url),
    transcript,
    isProxy: payload.is_proxy_agent_call === true,
    priceUsd: price != null && Number.isFinite(price) ? price : null,
    insights: mapBlandInsights(payload),
    ...(transcript ? { conversation: blandConversation(payload, 'approx') } : {}),
  };
  // Bland's delayed webhook carries the corrected segments itself.
  return withCorrectedTranscript(mapped, payload, payload.corrected_transcript);
}

export type ParsedBlandCall =
  | { success: true; call: NormalizedCall; payload: BlandCallPayload }
  | { success: false; message: string };

export function parseBlandCall(json: unknown, now: number = Date.now()): ParsedBlandCall {
  let data = readBlandCallFast(json);
  if (!data) {
    const result = blandCallSchema.safeParse(json);
    if (!result.success) return { success: false, message: firstIssue(result.error) };
    data = result.data;
  }
  const call = mapBlandCall(data, now);
  for (const field of ['created_at', 'started_at'] as const) {
    const problem = callTimeProblem(parseBlandTime(data[field]), now);
    if (problem) return { success: false, message: `${field}: ${problem}` };
  }
  return { success: true, call, payload: data };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys only a call-details object has; a live event is {message, call_id, category, log_level}. */
const CALL_KEYS = [
  'to',
  'from',
  'created_at',
  'started_at',
  'completed',
  'queue_status',
  'status',
  'call_length',
  'corrected_duration',
  'transcripts',
  'concatenated_transcript',
  'recording_url',
];
const EVENT_KEYS = ['message', 'category', 'log_level'];

/** What only a whole call-details object carries: how the call went (not just who it was to). */
const OUTCOME_KEYS = [
  'completed',
  'call_length',
  'corrected_duration',
  'transcripts',
  'concatenated_transcript',
];

/**
 * Bland's delayed combined webhooks (after a transfer, an analysis…) are the whole call-details
 * object plus `event_type`: a call to merge, not an event to drop. A follow-up that names a few
 * call fields ({event_type, call_id, status, to}) is still only an event.
 */
function isCombinedCallBody(json: Record<string, unknown>): boolean {
  return CALL_KEYS.filter((k) => k in json).length >= 4 && OUTCOME_KEYS.some((k) => k in json);
}

/** True for live-event bodies and their `event_type` follow-ups: never a call by themselves. */
export function isBlandEventBody(json: unknown): boolean {
  if (!isPlainObject(json)) return false;
  // Bland's SMS conversations may post to the same URL as its calls ({conversation_id, channel,
  // message, status, concatenated_transcript…}, no call_id): acknowledged, never a call.
  if ('conversation_id' in json && !('call_id' in json)) return true;
  if (typeof json.event_type === 'string') return !isCombinedCallBody(json);
  return EVENT_KEYS.some((k) => k in json) && !CALL_KEYS.some((k) => k in json);
}

export type WebhookBody =
  | { kind: 'call'; call: NormalizedCall; payload: BlandCallPayload }
  | { kind: 'event'; callId: string | null; event: BlandEvent }
  | { kind: 'invalid'; message: string };

/** Tells a finished (or ongoing) call from a live event; `now` stamps calls that carry no time. */
export function classifyWebhookBody(json: unknown, now?: number): WebhookBody {
  if (!isPlainObject(json)) return { kind: 'invalid', message: 'Expected a JSON object' };
  if (isBlandEventBody(json)) {
    const event = blandEventSchema.safeParse(json);
    if (!event.success) return { kind: 'invalid', message: `Invalid event: ${firstIssue(event.error)}` };
    return { kind: 'event', callId: event.data.call_id ?? null, event: event.data };
  }
  const parsed = parseBlandCall(json, now);
  if (!parsed.success) return { kind: 'invalid', message: `Invalid call: ${parsed.message}` };
  return { kind: 'call', call: parsed.call, payload: parsed.payload };
}
