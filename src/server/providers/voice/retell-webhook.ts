/**
 * Retell's webhooks as the product reads them: `{event, call}` posted to the client's webhook URL.
 * call_ended and call_analyzed carry the whole call (the second adds call_analysis): both are
 * stored, the second merged into the first. call_started and the transcript and transfer events
 * are acknowledged and shown live. Retell signs every delivery with the account's webhook API key:
 * X-Retell-Signature is `v=<ms>,d=<hex HMAC-SHA256 of the body followed by the ms>`, refused
 * when more than five minutes from our clock. Pure: no I/O.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/secrets';
import { headerValue, isProviderId } from './payload-fields';
import { isObject } from './provider-http';
import { parseRetellCall } from './retell-payload';
import type { WebhookHeaders, WebhookParse } from './types';

const INVALID_SIGNATURE = 'Invalid webhook signature';
const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;
const CALL_EVENTS = new Set(['call_ended', 'call_analyzed']);

export function retellSignature(raw: Buffer | string, apiKey: string, at: number): string {
  return `v=${at},d=${createHmac('sha256', apiKey)
    .update(Buffer.concat([Buffer.from(raw), Buffer.from(String(at))]))
    .digest('hex')}`;
}

function signedBy(raw: Buffer, headers: WebhookHeaders, apiKey: string, now: number): boolean {
  const match = /^v=(\d{1,16}),d=([0-9a-fA-F]{64})$/.exec(headerValue(headers, 'x-retell-signature'));
  if (!match) return false;
  const at = Number(match[1]);
  if (Math.abs(now - at) > SIGNATURE_WINDOW_MS) return false;
  return safeEqual(retellSignature(raw, apiKey, at), `v=${match[1]},d=${match[2].toLowerCase()}`);
}

export function parseRetellWebhook(
  received: Buffer | string,
  headers: WebhookHeaders,
  apiKey: string | null,
  now: number,
): WebhookParse {
  const raw = typeof received === 'string' ? Buffer.from(received, 'utf8') : received;
  if (apiKey && !signedBy(raw, headers, apiKey, now))
    return { kind: 'unauthorized', message: INVALID_SIGNATURE };
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'invalid', message: 'Request body is not valid JSON' };
  }
  if (!isObject(json)) return { kind: 'invalid', message: 'Expected a JSON object' };
  const { event, call } = json;
  if (typeof event !== 'string')
    return { kind: 'invalid', message: 'Expected a Retell event: {"event": …, "call": …}' };
  if (!CALL_EVENTS.has(event)) {
    const id = isObject(call) ? call.call_id : undefined;
    return { kind: 'event', callId: typeof id === 'string' && isProviderId(id) ? id : null };
  }
  const parsed = parseRetellCall(call, now);
  if (!parsed.success) return { kind: 'invalid', message: `Invalid call: ${parsed.message}` };
  return { kind: 'call', call: parsed.call, raw: call };
}
