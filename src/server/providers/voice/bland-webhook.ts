/**
 * Bland's post-call webhook as the provider sees it: the signature (hex HMAC-SHA256 of the body
 * with the account's signing secret, in X-Webhook-Signature; X-Bland-Signature accepted too) and
 * the body, told apart as a call or a live event. Pure: no I/O, so the route stays provider-free.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/secrets';
import { classifyWebhookBody } from './bland-payload';
import { headerValue } from './payload-fields';
import type { WebhookHeaders, WebhookParse } from './types';

const INVALID_SIGNATURE = 'Invalid webhook signature';

export function parseBlandWebhook(
  received: Buffer | string,
  headers: WebhookHeaders,
  secret: string | null,
  now: number,
): WebhookParse {
  // The signature is over the bytes as sent; a string is taken as their UTF-8.
  const raw = typeof received === 'string' ? Buffer.from(received, 'utf8') : received;
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return secret
      ? { kind: 'unauthorized', message: INVALID_SIGNATURE }
      : { kind: 'invalid', message: 'Request body is not valid JSON' };
  }
  if (secret) {
    const given = (
      headerValue(headers, 'x-webhook-signature') || headerValue(headers, 'x-bland-signature')
    ).toLowerCase();
    const signs = (bytes: Buffer | string) =>
      safeEqual(given, createHmac('sha256', secret).update(bytes).digest('hex'));
    // The bytes received; Bland's own verification sample signs the compact JSON of the body,
    // the same bytes when it sends compact JSON. Either needs the secret.
    if (!given || !(signs(raw) || signs(JSON.stringify(json)))) {
      return { kind: 'unauthorized', message: INVALID_SIGNATURE };
    }
  }
  const body = classifyWebhookBody(json, now);
  if (body.kind === 'invalid') return body;
  if (body.kind === 'event') return { kind: 'event', callId: body.callId };
  // Keep what Bland actually sent (not the validated subset) for re-processing later.
  return { kind: 'call', call: body.call, raw: json };
}
