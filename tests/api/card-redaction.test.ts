/**
 * Card numbers in the shapes redaction once let through, posted as Bland and Vapi deliveries
 * through the real app: a card read across two lines of the caller's, a card said straight after
 * another number or glued to one, cards sent as JSON numbers, cards written with "/" or "_", and a
 * security code and an SSN named only by their keys. None of their digits may reach the stored
 * call, the search, the caller's data export or the delivery log's kept bodies (a refused and an
 * unconfirmed delivery).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vapiAuthHeaders } from '../../sim/platforms/vapi';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createSignedInClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const CALLER = '+12125550199';
/** Each card's digits, and the pieces as said. */
const CARDS = [
  '4000056655665556', // across two lines: "number 4000 0566" / "5566 5556 done"
  '5200828282828210', // after a zip code: "zip 10001 5200 8282 8282 8210"
  '4242424242424242', // glued to an identifier: "V08 4242424242424242"
  '3530111333300000', // "3530/1113/3330/0000"
  '5105105105105100', // "5105_1051_0510_5100"
  '5555555555554444', // a JSON number under `pan`
  '6011111111111117', // a JSON number under `cardNumber` (Vapi's structured data)
];
const PIECES = ['4000 0566', '5566 5556', '8282 8282', '3530/1113', '5105_1051', '"739"', '219099999'];
const SIGNING_SECRET = 'card-redaction-signing-secret';

const LINES = [
  { agent: true, text: 'What card will you pay with?' },
  { agent: false, text: 'number 4000 0566' },
  { agent: false, text: '5566 5556 done' },
  { agent: true, text: 'And the other details?' },
  { agent: false, text: 'my zip 10001 5200 8282 8282 8210, the other is V08 4242424242424242' },
  { agent: false, text: 'also 3530/1113/3330/0000 and 5105_1051_0510_5100' },
];
const SECRETS = { nested: { pan: 5555555555554444 }, cvv: '739', ssn: '219099999' };

function blandBody() {
  const created = new Date(Date.now() - 5 * 60_000).toISOString();
  return blandCallBody({
    from: CALLER,
    summary: 'The caller read out card 3530/1113/3330/0000.',
    concatenated_transcript: LINES.map((l) => `${l.agent ? 'assistant' : 'user'}: ${l.text}`).join(' '),
    transcripts: LINES.map((l, i) => ({
      id: i + 1,
      created_at: created,
      text: l.text,
      user: l.agent ? 'assistant' : 'user',
    })),
    variables: SECRETS,
  });
}

function vapiBody() {
  const end = Date.now() - 60_000;
  const start = end - 90_000;
  const call = {
    id: randomUUID(),
    orgId: '2c1a6f0e-8d4e-4a4f-b3a1-0c5b2c7d9e11',
    type: 'inboundPhoneCall',
    createdAt: new Date(start).toISOString(),
    updatedAt: new Date(end).toISOString(),
    status: 'ended',
    customer: { number: CALLER },
  };
  return {
    message: {
      type: 'end-of-call-report',
      timestamp: end,
      endedReason: 'customer-ended-call',
      cost: 0.2,
      startedAt: new Date(start).toISOString(),
      endedAt: new Date(end).toISOString(),
      customer: { number: CALLER },
      call,
      analysis: {
        summary: 'The caller read out card 3530/1113/3330/0000.',
        structuredData: { cardNumber: 6011111111111117, ...SECRETS },
      },
      artifact: {
        transcript: LINES.map((l) => `${l.agent ? 'AI' : 'User'}: ${l.text}`).join('\n'),
        messages: LINES.map((l, i) => ({
          role: l.agent ? 'bot' : 'user',
          message: l.text,
          time: start + i * 4000,
          endTime: start + i * 4000 + 3000,
          secondsFromStart: i * 4,
        })),
      },
    },
  };
}

/** A text's digit groups joined across the separators a card may be written with. */
const joinedDigits = (text: string) => text.replace(/(?<=\d)(?:[\s/_\\|.-]|\\n)+(?=\d)/g, '');

function expectNoCard(text: string, where: string) {
  const digits = joinedDigits(text);
  for (const card of CARDS) expect(digits, `${where}: ${card}`).not.toContain(card);
  for (const piece of PIECES) expect(text, `${where}: ${piece}`).not.toContain(piece);
}

describe(`card numbers in every shape (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // Vapi's API, like Bland's, at an address that answers nothing: no call can be confirmed.
    t = await createTestApp({ env: { VAPI_API_URL: 'http://127.0.0.1:9' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function storedTexts(clientId: string) {
    const calls = await t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', clientId).execute();
    const deliveries = await t.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    return { calls, deliveries, text: JSON.stringify([calls, deliveries]) };
  }

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  for (const provider of ['bland', 'vapi'] as const) {
    const body = provider === 'bland' ? blandBody : vapiBody;
    const sign = (raw: string): Record<string, string> =>
      provider === 'bland'
        ? { 'x-webhook-signature': createHmac('sha256', SIGNING_SECRET).update(raw).digest('hex') }
        : vapiAuthHeaders(raw, { secret: SIGNING_SECRET });

    it(`keeps every shape of card out of a ${provider} call, its search, its export and the delivery log`, async () => {
      const { client, cookie } = await createSignedInClient(t, {
        provider,
        webhook_secret_enc: t.deps.secrets.encrypt(SIGNING_SECRET),
      });
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/client/privacy',
        headers: { cookie },
        payload: { redaction: { nationalIds: true } },
      });
      expect(put.statusCode, put.body).toBe(200);

      const raw = JSON.stringify(body());
      const delivered = await deliverWebhook(t.app, client.webhook_token, raw, sign(raw));
      expect(delivered.statusCode, delivered.body).toBe(200);
      // The same body badly signed: refused, its body kept for the log.
      const refused = await deliverWebhook(t.app, client.webhook_token, JSON.stringify(body()), {
        ...sign('another body'),
      });
      expect(refused.statusCode, refused.body).toBe(401);

      const stored = await storedTexts(client.id);
      expect(stored.calls).toHaveLength(1);
      expect(stored.deliveries.filter((d) => d.raw_body !== null)).toHaveLength(1);
      expectNoCard(stored.text, 'stored');
      const lines = JSON.parse(stored.calls[0]!.transcript!) as { text: string }[];
      expect(lines.map((l) => l.text)).toEqual([
        'What card will you pay with?',
        'number [CARD]',
        '[CARD] done',
        'And the other details?',
        'my zip 10001 [CARD], the other is V08 [CARD]',
        'also [CARD] and [CARD]',
      ]);
      expect(stored.text).toContain('[CVC]');
      expect(stored.text).toContain('[SSN]');

      for (const words of ['0566', '5556', '8210', '4242424242424242', '3330', '0510']) {
        const found = await get(`/api/client/calls?dateRange=7d&search=${words}`, cookie);
        expect(found.statusCode, found.body).toBe(200);
        expect(found.json().calls, words).toHaveLength(0);
      }
      const done = await get('/api/client/calls?dateRange=7d&search=done', cookie);
      expect(done.json().calls).toHaveLength(1);

      const exported = await t.app.inject({
        method: 'POST',
        url: '/api/client/subject-export',
        headers: { cookie },
        payload: { phone: CALLER },
      });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(JSON.parse(exported.body).calls).toHaveLength(1);
      expectNoCard(exported.body, 'export');
    });

    it(`keeps every shape of card out of an unconfirmed ${provider} delivery's kept body`, async () => {
      // No signing secret, and the platform cannot be reached to confirm the call (the test
      // configuration's API addresses answer nothing): the delivery is kept, unconfirmed.
      const { client, cookie } = await createSignedInClient(t, {
        provider,
        bland_api_key_enc: t.deps.secrets.encrypt(`key-${randomUUID()}`),
        api_key_status: 'valid',
      });
      await t.app.inject({
        method: 'PUT',
        url: '/api/client/privacy',
        headers: { cookie },
        payload: { redaction: { nationalIds: true } },
      });
      const delivered = await deliverWebhook(t.app, client.webhook_token, body());
      expect(delivered.statusCode, delivered.body).toBe(200);
      const stored = await storedTexts(client.id);
      const kept = stored.deliveries.filter((d) => d.raw_body !== null);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.raw_body).toContain('[CARD]');
      expectNoCard(stored.text, 'unconfirmed');
    });
  }
});
