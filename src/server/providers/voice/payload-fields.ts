/**
 * What every provider's payload reader shares: length caps on what we store, numbers and booleans
 * sent as strings within plausible bounds, ids safe to put in a request path, free text and JSON
 * objects taken loosely, and the bounds a call's times must keep. No I/O here.
 */
import { z } from 'zod';
import type { TimingPrecision } from '../../../contract/quality';
import { INSIGHT_JSON_MAX_BYTES, type NormalizedTranscriptEntry, type WebhookHeaders } from './types';

export const LIMITS = {
  id: 200,
  phone: 40,
  url: 2048,
  timestamp: 100,
  shortText: 100,
  transcriptText: 20_000,
  transcriptEntries: 2_000,
  pathwayName: 200,
  eventMessage: 20_000,
  summary: 8_000,
  errorMessage: 2_000,
  tag: 100,
} as const;

/**
 * Numbers Bland sometimes sends as strings (corrected_duration is documented as a string), within
 * plausible bounds: anyone who knows a webhook URL can post, and a forged 100,000,000-second call
 * would bill its client $250,000.
 */
export const numberLike = (max: number, outOfRange: string) =>
  z.union([z.number(), z.string().trim().max(40)]).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : value === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Expected a number' });
      return z.NEVER;
    }
    if (n < 0 || n > max) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: outOfRange });
      return z.NEVER;
    }
    return n;
  });

/** No call lasts a day: Bland ends calls long before (max_duration is in minutes, default 30). */
export const MAX_CALL_SECONDS = 24 * 60 * 60;
/** Bland's per-minute prices are cents; a day-long call costs well under this. */
export const MAX_CALL_PRICE_USD = 1_000;
/** No call is older than this (the same bound as the dashboards' query dates). */
export const EARLIEST_CALL_MS = Date.UTC(2000, 0, 1);
/** How far ahead of our clock a provider's timestamp may be (clock skew), in ms. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export const booleanLike = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

/**
 * Providers' ids (calls, pathways, assistants, agents) are UUIDs or prefixed tokens: letters, digits, '-' and
 * '_'. They become path segments of requests made with the client's key, so anything else ('..',
 * '../calls', a slash) is refused where it enters, whatever encodeURIComponent would make of it.
 */
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const isProviderId = (value: string) => value.length <= LIMITS.id && PROVIDER_ID.test(value);

export const ID_MESSAGE = `Expected an id of letters, digits, '-' and '_', at most ${LIMITS.id} characters`;

export const idLike = z
  .union([z.string().trim().min(1).max(LIMITS.id), z.number().int().nonnegative()], {
    errorMap: (_issue, ctx) => ({ message: ctx.data === undefined ? 'Required' : ID_MESSAGE }),
  })
  .transform((v) => String(v))
  .refine(isProviderId, ID_MESSAGE);

export const text = (max: number) => z.string().max(max);

/**
 * Free text the provider writes (summaries, error messages): cut to `max` characters rather than
 * refusing the call; a non-string is read as absent.
 */
export const looseText = (max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null))
    .optional();

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON object the provider attaches (analysis, variables); anything else is read as absent. */
export const looseObject = z
  .unknown()
  .transform((v) => (isJsonObject(v) ? v : null))
  .optional();

export function httpUrlOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The object when its JSON fits INSIGHT_JSON_MAX_BYTES, else null (kept whole in the raw payload). */
export function boundedObject(
  value: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!value) return null;
  try {
    return Buffer.byteLength(JSON.stringify(value)) <= INSIGHT_JSON_MAX_BYTES ? value : null;
  } catch {
    return null;
  }
}

export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Why a call's start time cannot be stored (in the future, or before 2000), or null. */
export function callTimeProblem(at: number | null, now: number): string | null {
  if (at === null) return null;
  if (at > now + MAX_CLOCK_SKEW_MS) return 'A call cannot start in the future';
  // Far-past times (year 1, 1970 from a zero timestamp) would land outside every dashboard range.
  if (at < EARLIEST_CALL_MS) return 'A call cannot start before the year 2000';
  return null;
}

/** A webhook header's first value, trimmed ('' when absent). */
export function headerValue(headers: WebhookHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : (value ?? '')).trim();
}

/**
 * A time in seconds from the call's start (Retell's words, Bland's corrected segments) as whole
 * ms; null for anything that is not a plausible one (a string, negative, past a day).
 */
export function msOfSeconds(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_CALL_SECONDS)
    return null;
  return Math.round(value * 1000);
}

/** A number as sent, or null (no strings: these are the provider's own numeric fields). */
export function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The platform's precision when every line carries a start and an end, else 'approx' (a transcript
 * with a line the platform did not time cannot be measured, and no lines have nothing to measure).
 */
export function precisionOfLines(
  lines: readonly NormalizedTranscriptEntry[],
  precise: TimingPrecision,
): TimingPrecision {
  const timed = (line: NormalizedTranscriptEntry) =>
    typeof line.startMs === 'number' && typeof line.endMs === 'number' && line.endMs >= line.startMs;
  return lines.length > 0 && lines.every(timed) ? precise : 'approx';
}

/** A stored payload as an object: calls.raw_payload's JSON text, or the parsed value; else null. */
export function storedObject(raw: unknown): Record<string, unknown> | null {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  return isJsonObject(value) ? value : null;
}
