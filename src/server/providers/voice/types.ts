/**
 * The provider-neutral face of a voice provider. Routes, sync and webhook ingestion speak only
 * this; each platform's wire format stays in its adapter (bland.ts, vapi.ts, retell.ts and their
 * payload readers), over the shared HTTP client (provider-http.ts); registry.ts picks a client's.
 */
import type { Readable } from 'node:stream';
import type { VoiceProviderId } from '../../../contract/providers';
import type { EndedBy, TimingPrecision } from '../../../contract/quality';

export type NormalizedCallStatus = 'completed' | 'failed' | 'transferred' | 'active' | 'unknown';

/** A transcript line as we store it (JSON in calls.transcript). Role is 'agent' or 'user'. */
export interface NormalizedTranscriptEntry {
  role: 'agent' | 'user' | string;
  text: string;
  timestamp?: string;
  /**
   * When the line was spoken, in whole ms from the call's start, where the platform
   * says: Retell's first and last word, Vapi's message times, Bland's corrected segments.
   */
  startMs?: number;
  endMs?: number;
}

/**
 * What conversation quality needs beyond the transcript: how precise the transcript's
 * times are, who ended the call in the product's terms, and the provider's sentiment label.
 */
export interface NormalizedConversation {
  /** 'approx' when the lines carry no usable start and end (Bland's post-call transcripts). */
  precision: TimingPrecision;
  endedBy: EndedBy;
  sentiment: string | null;
}

export interface NormalizedCall {
  providerCallId: string;
  fromNumber: string;
  toNumber: string;
  durationSeconds: number;
  status: NormalizedCallStatus;
  pathwayId: string | null;
  /** Epoch milliseconds, UTC. */
  createdAt: number;
  recordingUrl: string | null;
  /** null when the provider did not send one (list items): keep what is stored, don't erase it. */
  transcript: NormalizedTranscriptEntry[] | null;
  /** Warm-transfer proxy legs: stored, but kept out of stats so a transfer is not counted twice. */
  isProxy: boolean;
  /** What the provider charged the agency for the call (not the client's billed cost). */
  priceUsd: number | null;
  /**
   * What the provider says the call achieved. Each field is null when the delivery did not carry
   * it, and a null never erases a value stored earlier (list items carry less than webhooks).
   * Absent: nothing of the kind was sent.
   */
  insights?: CallInsights;
  /** Absent when the delivery carried no transcript (list items): the stored quality then stays. */
  conversation?: NormalizedConversation;
}

export interface CallInsights {
  summary: string | null;
  /** Lower case: human, voicemail, unknown, no-answer (or whatever else the provider says). */
  answeredBy: string | null;
  /** Lower case: assistant, user, … */
  endedBy: string | null;
  errorMessage: string | null;
  /** The provider's post-call outcome tag, as sent ("INTERESTED"). */
  dispositionTag: string | null;
  /** JSON objects as the provider sent them, within INSIGHT_JSON_MAX_BYTES; else null. */
  analysis: Record<string, unknown> | null;
  variables: Record<string, unknown> | null;
}

/** Larger analysis or variables objects are not kept (a payload is stored whole elsewhere, capped). */
export const INSIGHT_JSON_MAX_BYTES = 8 * 1024;

export const NO_INSIGHTS: CallInsights = {
  summary: null,
  answeredBy: null,
  endedBy: null,
  errorMessage: null,
  dispositionTag: null,
  analysis: null,
  variables: null,
};

export interface ListCallsQuery {
  /** Calls created at or after this instant. */
  startDate?: Date;
  /** The previous page's `nextCursor`; absent for the first page. */
  cursor?: string;
  /** Page size; each adapter keeps it within what its provider allows. */
  limit?: number;
}

/**
 * One page of a provider's calls. Pages come in the provider's own order (Bland oldest first, Vapi
 * newest first, Retell as asked), so a caller must not assume one.
 */
export interface ListCallsResult {
  calls: NormalizedCall[];
  /** raw[i] is the provider's item for calls[i] (keep it for re-processing). */
  raw: unknown[];
  /**
   * Where the next page starts, in the adapter's own terms (Bland an offset, Vapi a creation time,
   * Retell its pagination key); null when this page was the last. Items that could not be read
   * are left out of `calls` but never make a page look like the last.
   */
  nextCursor: string | null;
}

export interface RecordingStream {
  /** 200, 206 for a Range request, or 416 when the Range cannot be satisfied. */
  status: number;
  /** Lower-case names; only content-type, content-length, content-range, accept-ranges. */
  headers: Record<string, string>;
  body: Readable;
}

export interface TestCallRequest {
  /** E.164. */
  phoneNumber: string;
  webhookUrl: string;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A webhook delivery as the provider reads it. */
export type WebhookParse =
  | { kind: 'call'; call: NormalizedCall; raw: unknown }
  /** Live events and follow-ups: acknowledged and logged, never a call by themselves. */
  | { kind: 'event'; callId: string | null }
  | { kind: 'invalid'; message: string }
  /** A signing secret is set and the delivery is not signed with it. */
  | { kind: 'unauthorized'; message: string };

/** What a stored payload gives back (VoiceProvider.readStoredPayload). */
export interface StoredPayloadReading {
  transcript: NormalizedTranscriptEntry[] | null;
  conversation: NormalizedConversation | null;
}

export const NOTHING_STORED: StoredPayloadReading = Object.freeze({ transcript: null, conversation: null });

export interface VoiceProvider {
  readonly id: VoiceProviderId;
  /** How the product names the provider to people ("Bland AI"): messages never hard-code it. */
  readonly name: string;
  /**
   * What a delivery's signature is checked with: the provider signing secret the client set
   * (`'webhookSecret'`: clients.webhook_secret_enc; Bland, Vapi) or its API key (Retell signs with
   * the key). Not to be confused with the client endpoint's signing secret, which we sign our own
   * outgoing webhooks with (notifications/client-webhooks.ts).
   */
  readonly signatureKey: 'webhookSecret' | 'apiKey';
  listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult>;
  getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }>;
  streamRecording(apiKey: string, callId: string, range?: string): Promise<RecordingStream>;
  checkKey(apiKey: string): Promise<'valid' | 'invalid'>;
  getPathwayName(apiKey: string, pathwayId: string): Promise<string | null>;
  /**
   * Places an outbound test call whose post-call webhook goes to the client's URL (Support Tools).
   * Absent where a key is not enough (Vapi and Retell place calls from an assistant or agent and
   * a number of the account): the console then says how to place one.
   */
  placeTestCall?(apiKey: string, request: TestCallRequest): Promise<{ callId: string }>;
  /**
   * Deletes a call at the provider with what it keeps of it (recording, transcript, analysis), for
   * erasure by caller. 'not_found': the provider has no such call for this key (never
   * there, another account's, or already deleted, perhaps by a retry of our own request whose first
   * answer was lost). Every other failure throws the errors of errors.ts, as getCall does
   * (ProviderAuthError for a refused key, ProviderUnavailableError after retries on 429/5xx or
   * a network failure, VoiceProviderError for any other answer): never read one as deleted.
   * Absent where the platform has no delete API (Bland): the provider's copy then stays there.
   */
  deleteCall?(apiKey: string, callId: string): Promise<'deleted' | 'not_found'>;
  /**
   * Reads again what we kept of a call's payload (calls.raw_payload: the provider's fields less
   * `transcripts`, `concatenated_transcript` and `transcript`; stored-payload.ts), for the
   * quality backfill: the timed transcript where the payload still holds one (Retell's
   * transcript_object, Vapi's artifact.messages, Bland's corrected_transcript), and the
   * conversation whenever the payload reads as one of the provider's calls (its precision is that
   * of the transcript read here: 'approx' without one). Takes the stored JSON text or the parsed
   * object; never throws (null fields when unreadable); no I/O.
   */
  readStoredPayload(raw: unknown): StoredPayloadReading;
  /** Checks the signature (when the client has a secret) and reads a webhook body; no I/O. */
  parseWebhook(
    raw: Buffer | string,
    headers: WebhookHeaders,
    secret: string | null,
    now: number,
  ): WebhookParse;
}
