import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseBlandWebhook } from './bland-webhook';

const SECRET = 'whsec-unit-test-secret';
const NOW = Date.parse('2026-01-01T12:00:00Z');
const sign = (data: string, secret = SECRET) => createHmac('sha256', secret).update(data).digest('hex');
const call = {
  call_id: '9b0f3c56-6a0e-4b7e-8e0f-6f1c2d3e4f50',
  to: '+14155550123',
  from: '+12125550199',
  corrected_duration: '61',
  created_at: '2026-01-01T11:50:00Z',
  completed: true,
  status: 'completed',
};
// Pretty-printed, as a sender may send it: the bytes differ from JSON.stringify of the object.
const pretty = JSON.stringify(call, null, 2);

describe('Bland webhook parsing and signatures', () => {
  it('takes the body as a Buffer or a string, signed with either header', () => {
    for (const body of [pretty, Buffer.from(pretty)]) {
      for (const name of ['x-webhook-signature', 'x-bland-signature']) {
        const parsed = parseBlandWebhook(body, { [name]: sign(pretty) }, SECRET, NOW);
        expect(parsed.kind, name).toBe('call');
      }
    }
  });

  it("accepts Bland's documented form too: the HMAC of the body's compact JSON", () => {
    const parsed = parseBlandWebhook(
      pretty,
      { 'x-webhook-signature': sign(JSON.stringify(call)) },
      SECRET,
      NOW,
    );
    expect(parsed).toMatchObject({
      kind: 'call',
      call: { providerCallId: call.call_id, durationSeconds: 61 },
    });
  });

  it('refuses unsigned, wrongly signed and unparseable deliveries when a secret is set', () => {
    const refused = [
      parseBlandWebhook(pretty, {}, SECRET, NOW),
      parseBlandWebhook(pretty, { 'x-webhook-signature': sign(pretty, 'another-secret') }, SECRET, NOW),
      parseBlandWebhook(pretty, { 'x-webhook-signature': sign(pretty).slice(0, 63) }, SECRET, NOW),
      parseBlandWebhook('{"call_id":', { 'x-webhook-signature': sign('{"call_id":') }, SECRET, NOW),
      // A valid signature of other content.
      parseBlandWebhook(pretty.replace('61', '99999'), { 'x-webhook-signature': sign(pretty) }, SECRET, NOW),
    ];
    for (const answer of refused)
      expect(answer).toEqual({ kind: 'unauthorized', message: 'Invalid webhook signature' });
  });

  it('without a secret, reads the body and names a bad field', () => {
    expect(parseBlandWebhook(pretty, {}, null, NOW).kind).toBe('call');
    const far = parseBlandWebhook(
      JSON.stringify({ ...call, created_at: '1999-12-31T23:59:59Z' }),
      {},
      null,
      NOW,
    );
    expect(far).toEqual({
      kind: 'invalid',
      message: 'Invalid call: created_at: A call cannot start before the year 2000',
    });
  });
});
