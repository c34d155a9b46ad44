/**
 * Issue 21 §6: what one client can create per window, beyond sample sets and drafts
 * (sample-data.test.ts). A purchase attempt writes a payment row and provider objects whether or
 * not the card is good, so a scan posting made-up card ids must not add rows without bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim } from '../../sim/stripe';
import { createClient, loginClient } from '../helpers/factories';
import { TEST_DB, type TestApp, createTestApp } from '../helpers/test-app';

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
