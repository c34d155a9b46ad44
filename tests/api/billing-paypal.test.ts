/**
 * Wallet payments against the PayPal stand-in (the real adapter): amount checks, approval and
 * return, the buyer cancelling, signed webhooks, cancellation, and switching from card to PayPal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaypalSim, startPaypalSim } from '../../sim/paypal';
import { type StripeSim, startStripeSim } from '../../sim/stripe';
import { createBillingGateways } from '../../src/server/billing/gateways';
import { reconcilePaypal } from '../../src/server/billing/paypal-reconcile';
import { forgetBrand } from '../../src/server/brand/brand-store';
import type { ClientRow } from '../../src/server/db/schema';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`PayPal payments (${TEST_DB})`, () => {
  let t: TestApp;
  let paypal: PaypalSim;
  let stripe: StripeSim;
  let appUrl: string;
  beforeAll(async () => {
    paypal = await startPaypalSim({ clientId: 'pp-id', clientSecret: 'pp-secret', webhookId: 'WH-API' });
    stripe = await startStripeSim();
    t = await createTestApp({
      env: {
        PAYPAL_CLIENT_ID: 'pp-id',
        PAYPAL_CLIENT_SECRET: 'pp-secret',
        ADMIN_EMAIL: 'agency@example.test',
        PAYPAL_API_URL: paypal.url,
        PAYPAL_WEBHOOK_ID: 'WH-API',
        STRIPE_SECRET_KEY: 'sk_test_pp',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_pp',
        STRIPE_API_URL: stripe.url,
      },
    });
    // Webhooks need a real socket: PayPal's stand-in posts them like PayPal does.
    appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await paypal?.close();
    await stripe?.close();
  });

  async function newClient(): Promise<{ client: ClientRow; cookie: string }> {
    const client = await createClient(t.deps);
    return { client, cookie: await loginClient(t.app, client.email) };
  }
  const post = (url: string, cookie: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
  const getSubscription = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/client/subscription', headers: { cookie } })).json();
  const startPaypal = (cookie: string, planId: string, amount: unknown) =>
    post('/api/client/process-paypal-payment', cookie, { planId, amount });
  const follow = (location: string, cookie?: string) => {
    const url = new URL(location);
    return t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: cookie ? { cookie } : {} });
  };
  const pendingPaypalId = async (clientId: string) =>
    (
      await t.deps.db
        .selectFrom('payments')
        .select('provider_id')
        .where('client_id', '=', clientId)
        .where('provider', '=', 'paypal')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).provider_id!;

  it('refuses an amount that is not the plan’s price', async () => {
    const { cookie } = await newClient();
    for (const amount of [1, 48.99, 149, -49, 'free']) {
      const res = await startPaypal(cookie, 'starter', amount);
      expect(res.statusCode, String(amount)).toBe(400);
    }
    const tampered = await startPaypal(cookie, 'starter', 0.49);
    expect(tampered.json()).toEqual({
      message: 'The amount does not match the price of this plan',
      fields: { amount: 'The amount does not match the price of this plan' },
    });
    expect(paypal.state.subscriptions.size).toBe(0);
  });

  it('names the agency’s saved brand on PayPal’s approval page', async () => {
    await t.deps.db
      .insertInto('agency_brand')
      .values({
        id: 1,
        settings: JSON.stringify({ name: 'Northwind Voice' }),
        updated_at: 0,
        updated_by: null,
      })
      .execute();
    forgetBrand(t.deps);
    try {
      const { client, cookie } = await newClient();
      expect((await startPaypal(cookie, 'starter', 49)).statusCode).toBe(200);
      const paypalId = await pendingPaypalId(client.id);
      const approval = [...paypal.state.approvals.values()].find((a) => a.subscriptionId === paypalId);
      expect(approval?.brandName).toBe('Northwind Voice');
    } finally {
      await t.deps.db.deleteFrom('agency_brand').execute();
      forgetBrand(t.deps);
    }
  });

  it('redirects to PayPal, and activates on return only once PayPal says ACTIVE', async () => {
    const { client, cookie } = await newClient();
    const res = await startPaypal(cookie, 'professional', 149);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: expect.any(String) });
    expect(body.paypalUrl.startsWith(paypal.url)).toBe(true);
    const paypalId = await pendingPaypalId(client.id);
    expect(await getSubscription(cookie)).toBeNull();

    // Coming back by hand before approving grants nothing.
    const early = await t.app.inject({
      method: 'GET',
      url: `/api/billing/paypal/return?subscription_id=${paypalId}`,
      headers: { cookie },
    });
    expect(early.statusCode).toBe(303);
    expect(early.headers.location).toBe('/settings?tab=subscription&paypal=pending');
    expect(await getSubscription(cookie)).toBeNull();

    const { redirectUrl } = paypal.approve(paypalId);
    const back = await follow(redirectUrl, cookie);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/settings?tab=subscription&success=true');
    const sub = await getSubscription(cookie);
    expect(sub).toMatchObject({
      planId: 'professional',
      status: 'active',
      paymentMethod: 'PayPal',
      cancelAtPeriodEnd: false,
    });
    expect(Date.parse(sub.currentPeriodEnd) - Date.now()).toBeGreaterThan(27 * 86_400_000);
    const plan = await t.deps.db
      .selectFrom('plans')
      .selectAll()
      .where('id', '=', 'professional')
      .executeTakeFirstOrThrow();
    expect(plan.paypal_plan_id).toBeTruthy();

    // Returning twice (reload) changes nothing.
    expect((await follow(redirectUrl, cookie)).headers.location).toBe(
      '/settings?tab=subscription&success=true',
    );
    expect(await getSubscription(cookie)).toEqual(sub);
  });

  it('keeps nothing when the buyer cancels at PayPal', async () => {
    const { client, cookie } = await newClient();
    await startPaypal(cookie, 'starter', '49.00');
    const { redirectUrl } = paypal.cancelApproval(await pendingPaypalId(client.id));
    const back = await follow(redirectUrl, cookie);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/settings?tab=subscription');
    expect(await getSubscription(cookie)).toBeNull();
  });

  it('makes one PayPal subscription for a double click', async () => {
    const { client, cookie } = await newClient();
    const before = paypal.state.subscriptions.size;
    const [a, b] = await Promise.all([
      startPaypal(cookie, 'business', 399),
      startPaypal(cookie, 'business', 399),
    ]);
    expect(a.json().paypalUrl).toBe(b.json().paypalUrl);
    expect(paypal.state.subscriptions.size).toBe(before + 1);
    const rows = await t.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('does not show another client’s return as their success', async () => {
    const owner = await newClient();
    const other = await newClient();
    await startPaypal(owner.cookie, 'starter', 49);
    const { redirectUrl } = paypal.approve(await pendingPaypalId(owner.client.id));
    const back = await follow(redirectUrl, other.cookie);
    expect(back.headers.location).toBe('/settings?tab=subscription&paypal=pending');
    expect(await getSubscription(other.cookie)).toBeNull();
    // PayPal says it is the owner's and active: the owner has it.
    expect(await getSubscription(owner.cookie)).toMatchObject({ planId: 'starter', paymentMethod: 'PayPal' });
  });

  it('activates from a verified webhook, ignores replays and refuses forged deliveries', async () => {
    paypal.setWebhookTarget(`${appUrl}/api/webhooks/paypal`, 'WH-API');
    try {
      const { client, cookie } = await newClient();
      await startPaypal(cookie, 'enterprise', 999);
      paypal.approve(await pendingPaypalId(client.id));
      await paypal.flush();
      expect(await getSubscription(cookie)).toMatchObject({ planId: 'enterprise', status: 'active' });
      const handled = await t.deps.db
        .selectFrom('provider_events')
        .selectAll()
        .where('provider', '=', 'paypal')
        .execute();
      expect(handled.length).toBeGreaterThan(0);

      const eventId = handled[0].event_id;
      const replay = await paypal.resend(eventId);
      expect(replay).not.toBeNull();
      const again = await t.deps.db
        .selectFrom('provider_events')
        .selectAll()
        .where('provider', '=', 'paypal')
        .execute();
      expect(again).toHaveLength(handled.length);

      const forged = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/paypal',
        payload: JSON.stringify({
          id: 'WH-FORGED',
          event_type: 'BILLING.SUBSCRIPTION.CANCELLED',
          resource: { id: 'I-X' },
        }),
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${paypal.url}/v1/notifications/certs/CERT-SIM-1`,
          'paypal-transmission-id': 'abc',
          'paypal-transmission-sig': 'bm90IGEgc2lnbmF0dXJl',
          'paypal-transmission-time': new Date().toISOString(),
        },
      });
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({ message: 'Invalid webhook signature.' });
      const unsigned = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/paypal',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(unsigned.statusCode).toBe(400);
    } finally {
      paypal.setWebhookTarget(null);
    }
  });

  it('a declined PayPal renewal e-mails the client and the agency once, and keeps the plan', async () => {
    paypal.setWebhookTarget(`${appUrl}/api/webhooks/paypal`, 'WH-API');
    try {
      const { client, cookie } = await newClient();
      await startPaypal(cookie, 'starter', 49);
      const paypalId = await pendingPaypalId(client.id);
      paypal.approve(paypalId);
      await paypal.flush();
      paypal.failPayment(paypalId);
      await paypal.flush();
      const failed = await t.deps.db
        .selectFrom('provider_events')
        .select('event_id')
        .where('provider', '=', 'paypal')
        .execute();
      // PayPal re-sends; one e-mail each still.
      await paypal.resend(failed.at(-1)!.event_id);
      const mails = await t.deps.db
        .selectFrom('outbox')
        .select(['topic', 'payload_json'])
        .where('client_id', '=', client.id)
        .where('topic', 'in', ['payment.failed', 'admin.payment-failed'])
        .orderBy('topic')
        .execute();
      expect(mails.map((m) => [m.topic, JSON.parse(m.payload_json).to])).toEqual([
        ['admin.payment-failed', 'agency@example.test'],
        ['payment.failed', client.email],
      ]);
      expect(JSON.parse(mails[1].payload_json).subject).toBe('Your subscription payment failed');
      expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
    } finally {
      paypal.setWebhookTarget(null);
    }
  });

  it('cancels a PayPal subscription at PayPal and keeps access until the period ends', async () => {
    const { client, cookie } = await newClient();
    await startPaypal(cookie, 'starter', 49);
    const paypalId = await pendingPaypalId(client.id);
    await follow(paypal.approve(paypalId).redirectUrl, cookie);
    const res = await post('/api/client/subscription/cancel', cookie, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      paymentMethod: 'PayPal',
    });
    expect(paypal.state.subscriptions.get(paypalId)?.status).toBe('CANCELLED');
    expect((await post('/api/client/subscription/cancel', cookie, {})).statusCode).toBe(200);
  });

  it('ends the card subscription when the client switches to PayPal', async () => {
    const { client, cookie } = await newClient();
    const card = await post('/api/client/process-stripe-payment', cookie, {
      planId: 'starter',
      paymentMethodId: 'pm_card_visa',
    });
    expect(card.json().success).toBe(true);
    const stripeId = (
      await t.deps.db
        .selectFrom('subscriptions')
        .selectAll()
        .where('client_id', '=', client.id)
        .executeTakeFirstOrThrow()
    ).stripe_subscription_id!;
    await startPaypal(cookie, 'professional', 149);
    await follow(paypal.approve(await pendingPaypalId(client.id)).redirectUrl, cookie);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'professional', paymentMethod: 'PayPal' });
    expect(stripe.state.subscriptions.get(stripeId)?.status).toBe('canceled');
  });

  it('reconciles with PayPal: an approval whose webhook was lost activates, a cancellation at PayPal arrives', async () => {
    const ctx = { deps: t.deps, gateways: createBillingGateways(t.config), log: t.app.log };
    // No webhook target: PayPal's events about these subscriptions are lost.
    paypal.setWebhookTarget(null);
    const { client, cookie } = await newClient();
    await startPaypal(cookie, 'starter', 49);
    const paypalId = await pendingPaypalId(client.id);
    paypal.approve(paypalId); // the buyer approved, but never came back to our return URL
    expect(await getSubscription(cookie)).toBeNull();

    const first = await reconcilePaypal(ctx);
    expect(first.failed).toBe(0);
    expect(first.checked).toBeGreaterThanOrEqual(1);
    expect(await getSubscription(cookie)).toMatchObject({
      planId: 'starter',
      status: 'active',
      paymentMethod: 'PayPal',
    });

    // The buyer cancels in their PayPal account; the webhook is lost too. The next run notices.
    paypal.cancelByBuyer(paypalId);
    await reconcilePaypal(ctx);
    const row = await t.deps.db
      .selectFrom('subscriptions')
      .select(['status', 'cancel_at_period_end'])
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    // Paid until the period ends, then over: cancelled at PayPal is cancelled here.
    expect(row.cancel_at_period_end).toBe(1);
  });
});
