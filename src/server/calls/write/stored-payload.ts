/**
 * What is kept of a provider's call payload for re-processing later: the provider's own fields,
 * without the transcript (stored as the call's transcript already) and within a bound. Storing
 * every body whole let 40 deliveries of 1 MiB grow the database by 41 MB.
 */
export const MAX_STORED_PAYLOAD_BYTES = 16 * 1024;
/** Fields the call row already holds in full. */
const DROPPED_FIELDS = new Set(['transcripts', 'concatenated_transcript', 'transcript']);
const MAX_KEPT_STRING = 1024;

/**
 * The payload without the fields the call row already holds. Taken before the payload is
 * redacted (calls-repository.ts): redacting the transcript twice, once as the call's and once
 * inside a payload that is not going to keep it, was half of a sync's redaction time.
 */
export function withoutCopiedFields(raw: unknown): unknown {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  if (!Object.keys(raw).some((key) => DROPPED_FIELDS.has(key))) return raw;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!DROPPED_FIELDS.has(key)) kept[key] = value;
  }
  return kept;
}

export function storedPayload(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) return null;
  // An object in, an object out: withoutCopiedFields only drops keys
  const kept = withoutCopiedFields(raw) as Record<string, unknown>;
  const text = JSON.stringify(kept);
  if (Buffer.byteLength(text) <= MAX_STORED_PAYLOAD_BYTES) return text;
  // Still too big: keep the short top-level values, which are what re-processing reads.
  const scalars: Record<string, unknown> = { _truncated: true };
  let size = 20;
  for (const [key, value] of Object.entries(kept)) {
    const short =
      value === null ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (typeof value === 'string' && value.length <= MAX_KEPT_STRING);
    if (!short) continue;
    const entry = JSON.stringify({ [key]: value }).length;
    if (size + entry > MAX_STORED_PAYLOAD_BYTES) break;
    scalars[key] = value;
    size += entry;
  }
  return JSON.stringify(scalars);
}
