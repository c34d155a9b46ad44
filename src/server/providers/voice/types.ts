/**
 * The provider-neutral face of a voice provider. Routes, sync and webhook ingestion speak only
 * this; the Bland specifics (wire format, retries, concurrency) stay in bland.ts and
 * bland-payload.ts, so another provider can be added beside them.
 */
import type { Readable } from 'node:stream';

export type NormalizedCallStatus = 'completed' | 'failed' | 'transferred' | 'active' | 'unknown';

/** A transcript line as we store it (JSON in calls.transcript). Role is 'agent' or 'user'. */
export interface NormalizedTranscriptEntry {
  role: 'agent' | 'user' | string;
  text: string;
  timestamp?: string;
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
  startDate?: Date;
  endDate?: Date;
  /** Offset into the filtered, sorted result. */
  from?: number;
  /** 1..1000; the provider's default is 1000. */
  limit?: number;
  ascending?: boolean;
  sortBy?: 'created_at' | 'updated_at';
}

export interface ListCallsResult {
  /**
   * Calls matching the query on the provider, all pages together; null when the provider does not
   * say (Bland's documented list answer has no total_count): then page until a short page.
   */
  totalCount: number | null;
  calls: NormalizedCall[];
  /** raw[i] is the provider's item for calls[i] (keep it for re-processing). */
  raw: unknown[];
  /**
   * Items on this page as the provider sent them, including any we could not read and left out
   * of `calls`. Advance offsets by this, not by calls.length.
   */
  received: number;
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

export interface VoiceProvider {
  /** How the product names the provider to people ("Bland AI"): messages never hard-code it. */
  readonly name: string;
  listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult>;
  getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }>;
  streamRecording(apiKey: string, callId: string, range?: string): Promise<RecordingStream>;
  checkKey(apiKey: string): Promise<'valid' | 'invalid'>;
  getPathwayName(apiKey: string, pathwayId: string): Promise<string | null>;
  /** Places an outbound test call whose post-call webhook goes to the client's URL (Support Tools). */
  placeTestCall(apiKey: string, request: TestCallRequest): Promise<{ callId: string }>;
  /** Checks the signature (when the client has a secret) and reads a webhook body; no I/O. */
  parseWebhook(
    raw: Buffer | string,
    headers: WebhookHeaders,
    secret: string | null,
    now: number,
  ): WebhookParse;
}
