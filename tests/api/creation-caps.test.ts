/**
 * What one client can create per window, beyond sample sets and drafts
 * (sample-data.test.ts). A purchase attempt writes a payment row and provider objects whether or
 * not the card is good, so a scan posting made-up card ids must not add rows without bound. Issue
 * 34 §7: "Send test event" and "Send again" each add a delivery row, so they are capped too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim } from '../../sim/stripe';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const CHECKOUTS = 3;

describe(`creation caps (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: StripeSim;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_caps' });
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_caps',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_caps',
        STRIPE_API_URL: sim.url,
        CAP_CHECKOUTS_PER_HOUR: String(CHECKOUTS),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it(`caps purchase attempts at CAP_CHECKOUTS_PER_HOUR per client, with Retry-After`, async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const pay = (paymentMethodId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/client/process-stripe-payment',
        headers: { cookie },
        payload: { planId: 'starter', paymentMethodId },
      });
    for (let n = 0; n < CHECKOUTS; n++) {
      const declined = await pay('pm_card_chargeDeclined');
      expect(declined.statusCode).toBeGreaterThanOrEqual(400);
      expect(declined.statusCode).not.toBe(429);
    }
    const over = await pay('pm_card_visa');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      message: `You can make at most ${CHECKOUTS} purchase attempts per hour. Try again later.`,
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const paypal = await t.app.inject({
      method: 'POST',
      url: '/api/client/process-paypal-payment',
      headers: { cookie },
      payload: { planId: 'starter', amount: 49 },
    });
    expect(paypal.statusCode).toBe(429);
    const payments = await t.deps.db
      .selectFrom('payments')
      .select('id')
      .where('client_id', '=', client.id)
      .execute();
    expect(payments.length).toBeLessThanOrEqual(CHECKOUTS);

    // Another client's budget is its own.
    const other = await createClient(t.deps);
    const otherCookie = await loginClient(t.app, other.email);
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/client/process-stripe-payment',
      headers: { cookie: otherCookie },
      payload: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
    });
    expect(paid.statusCode).toBe(200);
  });
});

describe(`webhook send caps (${TEST_DB})`, () => {
  const TESTS = 2;
  const RESENDS = 3;
  const EXPORTS = 2;
  let t: TestApp;
  let receiver: Server;
  let receiverUrl: string;
  beforeAll(async () => {
    receiver = createServer((_, res) => res.end('ok'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    t = await createTestApp({
      env: {
        CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1',
        CAP_WEBHOOK_TESTS_PER_HOUR: String(TESTS),
        CAP_WEBHOOK_RESENDS_PER_HOUR: String(RESENDS),
        CAP_EXPORTS_PER_HOUR: String(EXPORTS),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('caps "Send test event" and "Send again" per client, adding no row past the cap', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const send = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const deliveries = async () =>
      (await t.deps.db.selectFrom('outbox').select('id').where('client_id', '=', client.id).execute()).length;
    expect((await send('PUT', '/api/client/integrations/webhook', { url: receiverUrl })).statusCode).toBe(
      200,
    );

    for (let n = 0; n < TESTS; n++)
      expect((await send('POST', '/api/client/integrations/webhook/test')).json()).toMatchObject({
        delivered: true,
      });
    const overTests = await send('POST', '/api/client/integrations/webhook/test');
    expect(overTests.statusCode).toBe(429);
    expect(overTests.json()).toEqual({
      message: `You can make at most ${TESTS} test events per hour. Try again later.`,
    });
    expect(Number(overTests.headers['retry-after'])).toBeGreaterThan(0);
    expect(await deliveries()).toBe(TESTS);

    const [first] = await t.deps.db
      .selectFrom('outbox')
      .select('id')
      .where('client_id', '=', client.id)
      .execute();
    const resend = () => send('POST', `/api/client/integrations/webhook/deliveries/${first!.id}/resend`);
    for (let n = 0; n < RESENDS; n++) expect((await resend()).statusCode).toBe(202);
    const overResends = await resend();
    expect(overResends.statusCode).toBe(429);
    expect(overResends.json().message).toBe(
      `You can make at most ${RESENDS} resends per hour. Try again later.`,
    );
    expect(await deliveries()).toBe(TESTS + RESENDS);

    // Another client's budget is its own.
    const other = await createClient(t.deps);
    const otherCookie = await loginClient(t.app, other.email);
    const otherSend = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: otherCookie }, ...(payload ? { payload } : {}) });
    await otherSend('PUT', '/api/client/integrations/webhook', { url: receiverUrl });
    expect((await otherSend('POST', '/api/client/integrations/webhook/test')).statusCode).toBe(200);
  });

  it('counts every export downloaded, one after another, against the hourly cap', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const download = () =>
      t.app.inject({ method: 'GET', url: '/api/client/calls/export?format=csv', headers: { cookie } });
    for (let n = 0; n < EXPORTS; n++) expect((await download()).statusCode).toBe(200);
    const over = await download();
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(`You can make at most ${EXPORTS} exports per hour. Try again later.`);
  });
});
