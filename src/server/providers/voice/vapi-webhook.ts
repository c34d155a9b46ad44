/**
 * Vapi's server messages as the product reads them: `{message: {type, call, …}}` posted to the
 * client's webhook URL. An end-of-call-report is a call; every other type (status-update,
 * transcript, conversation-update, hang…) is acknowledged and, when it names a call, shown live.
 * With a secret set, a delivery must carry it the way Vapi sends credentials: the legacy
 * X-Vapi-Secret header, a Bearer token, or an HMAC credential's x-vapi-signature (hex SHA-256
 * HMAC of the body). Pure: no I/O.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/secrets';
import { headerValue, isProviderId } from './payload-fields';
import { isObject } from './provider-http';
import type { WebhookHeaders, WebhookParse } from './types';
import { callOfReport, parseVapiCall } from './vapi-payload';

const INVALID_SIGNATURE = 'Invalid webhook signature';

function signedBy(raw: Buffer, headers: WebhookHeaders, secret: string): boolean {
  const legacy = headerValue(headers, 'x-vapi-secret');
  if (legacy && safeEqual(legacy, secret)) return true;
  const bearer = /^Bearer\s+(.+)$/i.exec(headerValue(headers, 'authorization'));
  if (bearer && safeEqual(bearer[1].trim(), secret)) return true;
  const signature = headerValue(headers, 'x-vapi-signature')
    .toLowerCase()
    .replace(/^sha256=/, '');
  return signature !== '' && safeEqual(signature, createHmac('sha256', secret).update(raw).digest('hex'));
}

export function parseVapiWebhook(
  received: Buffer | string,
  headers: WebhookHeaders,
  secret: string | null,
  now: number,
): WebhookParse {
  const raw = typeof received === 'string' ? Buffer.from(received, 'utf8') : received;
  if (secret && !signedBy(raw, headers, secret)) return { kind: 'unauthorized', message: INVALID_SIGNATURE };
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
