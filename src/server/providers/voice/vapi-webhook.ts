/**
 * Vapi's server messages as the product reads them: `{message: {type, call, …}}` posted to the
 * client's webhook URL. An end-of-call-report is a call; every other type (status-update,
 * transcript, conversation-update, hang…) is acknowledged and, when it names a call, shown live.
 * With a secret set, a delivery must carry it in one of the ways Vapi sends credentials
 * (docs/voice-provider.md §5):
 * - an HMAC credential (the SDK's HmacAuthenticationPlan): by default `x-signature`, the hex
 *   HMAC-SHA256 of "{timestamp}.{body}" with the timestamp in `x-timestamp`; also SHA-512 or SHA-1,
 *   base64, a "sha256=" prefix, the `x-vapi-signature` header, or the body alone (no timestamp);
 * - the legacy X-Vapi-Secret header, the secret itself in X-Vapi-Signature, or a Bearer token.
 * A timestamped signature is refused more than five minutes from our clock (a replay);
 * a body-only one cannot be dated, and its replay merges as a duplicate of the call. Pure: no I/O.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { safeEqual } from '../../crypto/secrets';
import { headerValue, isProviderId } from './payload-fields';
import { isObject } from './provider-http';
import type { WebhookHeaders, WebhookParse } from './types';
import { callOfReport, parseVapiCall } from './vapi-payload';

const INVALID_SIGNATURE = 'Invalid webhook signature';
const STALE_SIGNATURE = 'Webhook timestamp is more than 5 minutes from our clock';
export const VAPI_SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

/** Where an HMAC credential may put its signature: Vapi's default, then the older name. */
const SIGNATURE_HEADERS = ['x-signature', 'x-vapi-signature'] as const;
const TIMESTAMP_HEADER = 'x-timestamp';
/** The plan's algorithms, by the length of the digest they give. */
const ALGORITHM_BY_BYTES: Record<number, string> = { 20: 'sha1', 32: 'sha256', 64: 'sha512' };
const MAX_HEADER = 300;

/** A signature header's digest as bytes: hex or base64 (standard or URL-safe), less a prefix. */
function digestOf(value: string): Buffer[] {
  if (!value || value.length > MAX_HEADER) return [];
  const bare = value.replace(/^(sha1|sha256|sha512|v1)=/i, '');
  const out: Buffer[] = [];
  if (/^[0-9a-f]+$/i.test(bare) && bare.length % 2 === 0) out.push(Buffer.from(bare, 'hex'));
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(bare)) out.push(Buffer.from(bare, 'base64'));
  return out.filter((digest) => ALGORITHM_BY_BYTES[digest.length] !== undefined);
}

/** The instant of an `x-timestamp`: epoch seconds or milliseconds (Vapi does not say), or ISO 8601. */
export function vapiTimestamp(value: string): number | null {
  if (/^\d{1,16}$/.test(value)) {
    const n = Number(value);
    return n < 1e11 ? n * 1000 : n;
  }
  if (value.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

type Verdict = 'signed' | 'stale' | 'unsigned';

function hmacVerdict(raw: Buffer, headers: WebhookHeaders, secret: string, now: number): Verdict {
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const usableTimestamp = timestamp !== '' && timestamp.length <= 40;
  let stale = false;
  for (const name of SIGNATURE_HEADERS) {
    for (const digest of digestOf(headerValue(headers, name))) {
      const algorithm = ALGORITHM_BY_BYTES[digest.length];
      const matches = (payload: Buffer) =>
        timingSafeEqual(createHmac(algorithm, secret).update(payload).digest(), digest);
      if (usableTimestamp && matches(Buffer.concat([Buffer.from(`${timestamp}.`), raw]))) {
        const at = vapiTimestamp(timestamp);
        if (at !== null && Math.abs(now - at) <= VAPI_SIGNATURE_WINDOW_MS) return 'signed';
        stale = true;
      } else if (matches(raw)) return 'signed';
    }
  }
  return stale ? 'stale' : 'unsigned';
}

function verdictOf(raw: Buffer, headers: WebhookHeaders, secret: string, now: number): Verdict {
  const legacy = headerValue(headers, 'x-vapi-secret');
  if (legacy && safeEqual(legacy, secret)) return 'signed';
  // Vapi's "secret token" form sends the secret itself in X-Vapi-Signature.
  const plain = headerValue(headers, 'x-vapi-signature');
  if (plain && safeEqual(plain, secret)) return 'signed';
  const bearer = /^Bearer\s+(.+)$/i.exec(headerValue(headers, 'authorization'));
  if (bearer && safeEqual(bearer[1].trim(), secret)) return 'signed';
  return hmacVerdict(raw, headers, secret, now);
}

export function parseVapiWebhook(
  received: Buffer | string,
  headers: WebhookHeaders,
  secret: string | null,
  now: number,
): WebhookParse {
  const raw = typeof received === 'string' ? Buffer.from(received, 'utf8') : received;
  if (secret) {
    const verdict = verdictOf(raw, headers, secret, now);
    if (verdict !== 'signed')
      return { kind: 'unauthorized', message: verdict === 'stale' ? STALE_SIGNATURE : INVALID_SIGNATURE };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'invalid', message: 'Request body is not valid JSON' };
  }
  const message = isObject(json) ? json.message : undefined;
  if (!isObject(message) || typeof message.type !== 'string')
    return { kind: 'invalid', message: 'Expected a Vapi server message: {"message": {"type": …}}' };
  if (message.type !== 'end-of-call-report') {
    const id = isObject(message.call) ? message.call.id : undefined;
    return { kind: 'event', callId: typeof id === 'string' && isProviderId(id) ? id : null };
  }
  const call = callOfReport(message);
  if (!call) return { kind: 'invalid', message: 'Invalid call: message.call: Required' };
  const parsed = parseVapiCall(call, now);
  if (!parsed.success) return { kind: 'invalid', message: `Invalid call: ${parsed.message}` };
  return { kind: 'call', call: parsed.call, raw: call };
}
