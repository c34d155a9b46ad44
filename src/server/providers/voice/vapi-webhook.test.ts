/**
 * Vapi's credential forms on a server message: the HMAC credential with Vapi's
 * defaults (HmacAuthenticationPlan in VapiAI/server-sdk-typescript: x-signature, x-timestamp,
 * payload "{timestamp}.{body}", hex) and its documented variations (sha512/sha1, base64, a prefix,
 * the body alone, the x-vapi-signature header), the legacy secret header and a Bearer token; a
 * timestamped signature is refused more than five minutes from our clock.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseVapiWebhook } from './vapi-webhook';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const SECRET = 'server-secret-0001';
const body = JSON.stringify({
  message: {
    type: 'end-of-call-report',
    endedReason: 'customer-ended-call',
    call: { id: '0c4f8a52-6a43-4f0e-9f3e-2d5b8c1a7e90', createdAt: new Date(NOW - 60_000).toISOString() },
  },
});

const hmac = (payload: string, algorithm = 'sha256', encoding: 'hex' | 'base64' = 'hex', secret = SECRET) =>
  createHmac(algorithm, secret).update(payload).digest(encoding);
const kind = (headers: Record<string, string>, raw = body) =>
  parseVapiWebhook(raw, headers, SECRET, NOW).kind;

describe('Vapi HMAC credential', () => {
  it('accepts Vapi’s defaults: x-signature over "{timestamp}.{body}", hex SHA-256, x-timestamp', () => {
    for (const ts of [String(NOW), String(Math.floor(NOW / 1000)), new Date(NOW).toISOString()])
      expect(kind({ 'x-signature': hmac(`${ts}.${body}`), 'x-timestamp': ts }), ts).toBe('call');
  });

  it('accepts the documented variations of the plan', () => {
    const ts = String(NOW - 60_000);
    const forms: Record<string, string>[] = [
      { 'x-signature': hmac(`${ts}.${body}`, 'sha512'), 'x-timestamp': ts },
      { 'x-signature': hmac(`${ts}.${body}`, 'sha1'), 'x-timestamp': ts },
      { 'x-signature': hmac(`${ts}.${body}`, 'sha256', 'base64'), 'x-timestamp': ts },
      { 'x-signature': `sha256=${hmac(`${ts}.${body}`)}`, 'x-timestamp': ts },
      { 'x-signature': hmac(`${ts}.${body}`).toUpperCase(), 'x-timestamp': ts },
      { 'x-vapi-signature': hmac(`${ts}.${body}`), 'x-timestamp': ts },
      // includeTimestamp off / payload format "{body}": the body alone, with or without the header.
      { 'x-signature': hmac(body) },
      { 'x-signature': hmac(body, 'sha256', 'base64'), 'x-timestamp': ts },
      { 'x-vapi-signature': hmac(body) },
      { 'x-vapi-signature': `sha256=${hmac(body)}` },
      // The older secret forms.
      { 'x-vapi-secret': SECRET },
      { 'x-vapi-signature': SECRET },
      { authorization: `Bearer ${SECRET}` },
    ];
    for (const headers of forms) expect(kind(headers), JSON.stringify(headers)).toBe('call');
  });

  it('refuses wrong signatures, other secrets, other bodies and missing timestamps', () => {
    const ts = String(NOW);
    const forms: Record<string, string>[] = [
      {},
      { 'x-signature': hmac(`${ts}.${body}`, 'sha256', 'hex', 'another-secret') },
      { 'x-signature': hmac(`${ts}.${body} `), 'x-timestamp': ts },
      // Signed over the timestamp, sent without it (or with another).
      { 'x-signature': hmac(`${ts}.${body}`) },
      { 'x-signature': hmac(`${ts}.${body}`), 'x-timestamp': String(NOW + 1) },
      { 'x-signature': 'zz' },
      { 'x-signature': 'a'.repeat(5000), 'x-timestamp': 'x'.repeat(5000) },
      { 'x-vapi-secret': 'other' },
      { authorization: 'Bearer other' },
    ];
    for (const headers of forms) expect(kind(headers), JSON.stringify(headers)).toBe('unauthorized');
  });

  it('refuses a timestamped signature more than five minutes from our clock (a replay)', () => {
    for (const at of [NOW - 6 * 60_000, NOW + 6 * 60_000, Math.floor((NOW - 3_600_000) / 1000)]) {
      const ts = String(at);
      const answer = parseVapiWebhook(
        body,
        { 'x-signature': hmac(`${ts}.${body}`), 'x-timestamp': ts },
        SECRET,
        NOW,
      );
      expect(answer).toEqual({ kind: 'unauthorized', message: expect.stringMatching(/5 minutes/) });
    }
    const fresh = String(NOW - 4 * 60_000);
    expect(kind({ 'x-signature': hmac(`${fresh}.${body}`), 'x-timestamp': fresh })).toBe('call');
  });

  it('keeps a body-only signature valid later: a replay of it merges as a duplicate', () => {
    expect(parseVapiWebhook(body, { 'x-vapi-signature': hmac(body) }, SECRET, NOW + 3_600_000).kind).toBe(
      'call',
    );
  });

  it('checks nothing without a secret', () => {
    expect(parseVapiWebhook(body, {}, null, NOW).kind).toBe('call');
  });
});
