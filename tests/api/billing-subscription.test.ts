/** Plans, the subscription read (usage from the rollups), and billing without payment keys. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`plans and subscription (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });

  it('requires a client session', async () => {
    for (const [method, url] of [
      ['GET', '/api/client/subscription'],
      ['GET', '/api/client/subscription-plans'],
      ['POST', '/api/client/subscription/cancel'],
      ['POST', '/api/client/process-stripe-payment'],
      ['POST', '/api/client/confirm-stripe-payment'],
      ['PUT', '/api/client/payment-method'],
      ['POST', '/api/client/process-paypal-payment'],
    ] as const) {
      expect((await send(method, url, undefined, {})).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('lists the seeded plans in dollars, at most six, active only', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const res = await send('GET', '/api/client/subscription-plans', cookie);
    expect(res.json()).toEqual([
      { id: 'starter', name: 'Starter', monthlyPrice: 49, minutesIncluded: 500 },
      { id: 'professional', name: 'Professional', monthlyPrice: 149, minutesIncluded: 2000 },
      { id: 'business', name: 'Business', monthlyPrice: 399, minutesIncluded: 6000 },
      { id: 'enterprise', name: 'Enterprise', monthlyPrice: 999, minutesIncluded: 20000 },
    ]);

    await t.deps.db
      .insertInto('plans')
      .values([
        ...[5, 6, 7].map((n) => ({
          id: `extra-${n}`,
          name: `Extra ${n}`,
          monthly_price_cents: n * 1000 + 99,
          minutes_included: 100,
          sort_order: n,
          is_active: 1,
        })),
        {
          id: 'retired',
          name: 'Retired',
          monthly_price_cents: 100,
          minutes_included: 1,
          sort_order: 0,
          is_active: 0,
        },
      ])
      .execute();
    const more = (await send('GET', '/api/client/subscription-plans', cookie)).json();
    expect(more).toHaveLength(6);
    expect(more.map((p: { id: string }) => p.id)).not.toContain('retired');
    expect(more[4]).toEqual({ id: 'extra-5', name: 'Extra 5', monthlyPrice: 50.99, minutesIncluded: 100 });
    await t.deps.db
      .deleteFrom('plans')
      .where('id', 'in', ['extra-5', 'extra-6', 'extra-7', 'retired'])
      .execute();
  });

  it('answers null without a subscription, and this month’s minutes with one', async () => {
    const client = await createClient(t.deps, { timezone: 'America/New_York' });
    const cookie = await loginClient(t.app, client.email);
    const none = await send('GET', '/api/client/subscription', cookie);
    expect(none.statusCode).toBe(200);
    expect(none.headers['content-type']).toMatch(/application\/json/);
    expect(none.body).toBe('null');

    const now = Date.now();
    const periodEnd = now + 20 * 86_400_000;
    await t.deps.db
      .insertInto('subscriptions')
      .values({
        id: randomUUID(),
        client_id: client.id,
        plan_id: 'starter',
        status: 'past_due',
        provider: 'card',
        card_brand: 'amex',
        card_last4: '0005',
        card_exp: '12/2030',
        stripe_subscription_id: null,
        paypal_subscription_id: null,
        current_period_end: periodEnd,
        cancel_at_period_end: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // 10 min + 5.5 min this month; a call long before this month does not count.
    await storeCalls(t.deps, client, [
      { durationSeconds: 600, createdAt: now - 60_000 },
      { durationSeconds: 330, createdAt: now - 120_000, status: 'failed' },
      { durationSeconds: 3600, createdAt: now - 40 * 86_400_000 },
    ]);
    const sub = (await send('GET', '/api/client/subscription', cookie)).json();
    expect(sub).toEqual({
      planId: 'starter',
      status: 'past_due',
      paymentMethod: 'American Express •••• 0005',
      currentPeriodEnd: new Date(periodEnd).toISOString(),
      cancelAtPeriodEnd: false,
      minutesUsedThisMonth: 16,
      plan: { id: 'starter', name: 'Starter', monthlyPrice: 49, minutesIncluded: 500 },
      actionRequired: false,
    });
  });

  it('says clearly when payments are not configured', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    expect((await send('GET', '/api/billing/config')).json()).toEqual({
      stripePublishableKey: null,
      paypalEnabled: false,
      stripeJsUrl: null,
    });
    const card = await send('POST', '/api/client/process-stripe-payment', cookie, {
      planId: 'starter',
      paymentMethodId: 'pm_card_visa',
    });
    expect(card.statusCode).toBe(503);
    expect(card.json()).toEqual({ message: 'Card payments are not configured' });
    const wallet = await send('POST', '/api/client/process-paypal-payment', cookie, {
      planId: 'starter',
      amount: 49,
    });
    expect(wallet.statusCode).toBe(503);
    expect(wallet.json()).toEqual({ message: 'PayPal payments are not configured' });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.statusCode).toBe(503);
    const ret = await send('GET', '/api/billing/paypal/return?subscription_id=I-1', cookie);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe('/settings?tab=subscription');
  });
});
