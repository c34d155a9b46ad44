/**
 * Card payments against the Stripe stand-in (the real adapter and SDK): success, 3-D Secure,
 * declines, a double click, plan change, card replacement, and the signed webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim, stripeSignatureHeader } from '../../sim/stripe';
import { BILLING_MESSAGES } from '../../src/contract/billing';
import type { ClientRow } from '../../src/server/db/schema';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const WEBHOOK_SECRET = 'whsec_api_test_secret';

describe(`card payments (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: StripeSim;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_api' });
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_api',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_api',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: sim.url,
        // Longer than the stand-in's default activation delay (1 s), shorter than a slow one.
        STRIPE_CONFIRM_WAIT_MS: '3000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  async function newClient(): Promise<{ client: ClientRow; cookie: string }> {
    const client = await createClient(t.deps);
    return { client, cookie: await loginClient(t.app, client.email) };
  }
  const post = (url: string, cookie: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
  const put = (url: string, cookie: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url, payload: payload as object, headers: { cookie } });
  const getSubscription = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/client/subscription', headers: { cookie } })).json();
  const pay = (cookie: string, planId: string, paymentMethodId: string) =>
    post('/api/client/process-stripe-payment', cookie, { planId, paymentMethodId });
  const simSubscriptionsOf = (customerId: string | null) =>
    [...sim.state.subscriptions.values()].filter((s) => s.customer === customerId);
  const stored = (id: string) =>
    t.deps.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const paymentsOf = (id: string) =>
    t.deps.db.selectFrom('payments').selectAll().where('client_id', '=', id).execute();

  /** What Stripe.js does when the customer passes the 3-D Secure challenge. */
  async function passThreeDSecure(clientSecret: string) {
    const intentId = clientSecret.split('_secret_')[0];
    const res = await fetch(`${sim.url}/v1/payment_intents/${intentId}/confirm`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_api', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: clientSecret }).toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; payment_method: string };
  }

  function signedWebhook(payload: string, secret = WEBHOOK_SECRET) {
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignatureHeader(payload, secret),
      },
    });
  }

  it('answers the publishable key for the checkout page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/config' });
    expect(res.json()).toEqual({
      stripePublishableKey: 'pk_test_api',
      paypalEnabled: false,
      stripeJsUrl: null,
    });
  });

  it('subscribes with a card that pays at once', async () => {
    const { client, cookie } = await newClient();
    expect(await getSubscription(cookie)).toBeNull();
    const res = await pay(cookie, 'starter', 'pm_card_visa');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Successfully subscribed to Starter!' });

    const sub = await getSubscription(cookie);
    expect(sub).toMatchObject({
      planId: 'starter',
      status: 'active',
      paymentMethod: 'Visa •••• 4242',
      cancelAtPeriodEnd: false,
      minutesUsedThisMonth: 0,
      plan: { id: 'starter', name: 'Starter', monthlyPrice: 49, minutesIncluded: 500 },
    });
    const periodEnd = Date.parse(sub.currentPeriodEnd);
    expect(periodEnd - Date.now()).toBeGreaterThan(27 * 86_400_000);
    expect(periodEnd - Date.now()).toBeLessThan(32 * 86_400_000);

    const row = await stored(client.id);
    expect(row.stripe_customer_id).toMatch(/^cus_/);
    const stripeSubs = simSubscriptionsOf(row.stripe_customer_id);
    expect(stripeSubs).toHaveLength(1);
    expect(stripeSubs[0].metadata).toMatchObject({ clientId: client.id, planId: 'starter' });
    const plan = await t.deps.db
      .selectFrom('plans')
      .selectAll()
      .where('id', '=', 'starter')
      .executeTakeFirstOrThrow();
    expect(plan.stripe_price_id).toMatch(/^price_/);
    const payments = await paymentsOf(client.id);
    expect(payments).toMatchObject([
      { provider: 'stripe', status: 'succeeded', amount_cents: 4900, plan_id: 'starter' },
    ]);
  });

  it('charges once when the second press arrives after the first purchase finished', async () => {
    const { client, cookie } = await newClient();
    const first = await pay(cookie, 'professional', 'pm_card_visa');
    const second = await pay(cookie, 'professional', 'pm_card_visa');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toMatchObject({ success: true });
    const row = await stored(client.id);
    expect(simSubscriptionsOf(row.stripe_customer_id)).toHaveLength(1);
    const invoices = [...sim.state.invoices.values()].filter((i) => i.customer === row.stripe_customer_id);
    expect(invoices).toHaveLength(1);
    expect(await paymentsOf(client.id)).toHaveLength(1);
  });

  it('charges once when the pay button is pressed twice', async () => {
    const { client, cookie } = await newClient();
    const [a, b] = await Promise.all([
      pay(cookie, 'professional', 'pm_card_visa'),
      pay(cookie, 'professional', 'pm_card_visa'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().success).toBe(true);
    expect(b.json().success).toBe(true);
    const row = await stored(client.id);
    expect(simSubscriptionsOf(row.stripe_customer_id)).toHaveLength(1);
    const invoices = [...sim.state.invoices.values()].filter((i) => i.customer === row.stripe_customer_id);
    expect(invoices).toHaveLength(1);
    expect(await paymentsOf(client.id)).toHaveLength(1);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'professional', status: 'active' });
  });

  it('answers a declined card with Stripe’s message and keeps nothing', async () => {
    const { client, cookie } = await newClient();
    const res = await pay(cookie, 'starter', 'pm_card_chargeDeclined');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Your card was declined.' });
    expect(await getSubscription(cookie)).toBeNull();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: 'failed' }]);

    // The first charge failing after the card attached is a decline too, and the incomplete subscription goes.
    const later = await pay(cookie, 'starter', 'pm_card_chargeCustomerFail');
    expect(later.statusCode).toBe(402);
    expect(later.json().message).toMatch(/declined/i);
    expect(await getSubscription(cookie)).toBeNull();
    const row = await stored(client.id);
    expect(simSubscriptionsOf(row.stripe_customer_id).every((s) => s.status !== 'active')).toBe(true);

    // Trying again after a decline is allowed.
    const retry = await pay(cookie, 'starter', 'pm_card_visa');
    expect(retry.json()).toMatchObject({ success: true });
  });

  it('asks for 3-D Secure and activates only once Stripe says it is paid', async () => {
    const { cookie } = await newClient();
    const res = await pay(cookie, 'business', 'pm_card_authenticationRequired');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: false, requiresAction: true });
    expect(body.clientSecret).toMatch(/^pi_.+_secret_/);
    expect(await getSubscription(cookie)).toBeNull();

    // The browser's word is not enough before the bank has confirmed.
    const early = await post('/api/client/confirm-stripe-payment', cookie, { planId: 'business' });
    expect(early.statusCode).toBe(402);
    expect(await getSubscription(cookie)).toBeNull();

    const intent = await passThreeDSecure(body.clientSecret);
    expect(intent.status).toBe('succeeded');
    const confirmed = await post('/api/client/confirm-stripe-payment', cookie, {
      planId: 'business',
      paymentMethodId: intent.payment_method,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: 'Successfully subscribed to Business!' });
    expect(await getSubscription(cookie)).toMatchObject({
      planId: 'business',
      status: 'active',
      paymentMethod: 'Visa •••• 3184',
    });
  });

  it('after 3-D Secure, waits for Stripe to activate the subscription instead of calling it failed', async () => {
    const { client, cookie } = await newClient();
    sim.setActivationDelay(1_500);
    const { clientSecret } = (await pay(cookie, 'starter', 'pm_card_authenticationRequired')).json();
    await passThreeDSecure(clientSecret);
    // Stripe still says "incomplete" at this instant; the answer must not be a failure.
    const customerId = (await stored(client.id)).stripe_customer_id;
    expect(simSubscriptionsOf(customerId)[0].status).toBe('incomplete');
    const confirmed = await post('/api/client/confirm-stripe-payment', cookie, { planId: 'starter' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: 'Successfully subscribed to Starter!' });
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
    expect(simSubscriptionsOf(customerId)).toHaveLength(1);
  });

  it('answers pending when Stripe is slower than the wait, refuses a second purchase meanwhile, and the webhook activates it', async () => {
    const { client, cookie } = await newClient();
    sim.setActivationDelay(5_000);
    try {
      const { clientSecret } = (await pay(cookie, 'starter', 'pm_card_authenticationRequired')).json();
      const eventsBefore = new Set(sim.state.events.keys());
      await passThreeDSecure(clientSecret);
      const confirmed = await post('/api/client/confirm-stripe-payment', cookie, { planId: 'starter' });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toEqual({
        success: false,
        pending: true,
        message: BILLING_MESSAGES.activationPending,
      });
      // The customer, told nothing failed, does not pay again; a retry (or another plan) is refused
      // rather than creating a second subscription, and the first is not cancelled.
      for (const [plan, card] of [
        ['starter', 'pm_card_authenticationRequired'],
        ['business', 'pm_card_visa'],
      ] as const) {
        const again = await pay(cookie, plan, card);
        expect(again.statusCode).toBe(409);
        expect(again.json().message).toBe(BILLING_MESSAGES.confirmationUnderway);
      }
      const customerId = (await stored(client.id)).stripe_customer_id;
      expect(simSubscriptionsOf(customerId).map((s) => s.status)).toEqual(['incomplete']);

      // Stripe activates it and says so; the webhook makes it active here.
      const paid = () =>
        [...sim.state.events.values()].find((e) => !eventsBefore.has(e.id) && e.type === 'invoice.paid');
      await expect.poll(paid, { timeout: 8_000 }).toBeDefined();
      const payload = JSON.stringify(paid());
      expect((await signedWebhook(payload)).statusCode).toBe(200);
      expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
      expect(simSubscriptionsOf(customerId).map((s) => s.status)).toEqual(['active']);
    } finally {
      sim.setActivationDelay(1_000);
    }
  }, 20_000);

  it('changes plan on the existing card subscription and replaces the card', async () => {
    const { client, cookie } = await newClient();
    await pay(cookie, 'starter', 'pm_card_visa');
    const before = simSubscriptionsOf((await stored(client.id)).stripe_customer_id);
    expect(before).toHaveLength(1);

    const res = await pay(cookie, 'enterprise', 'pm_card_mastercard');
    expect(res.json()).toEqual({ success: true, message: 'Successfully subscribed to Enterprise!' });
    const after = simSubscriptionsOf((await stored(client.id)).stripe_customer_id);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(before[0].id);
    expect(await getSubscription(cookie)).toMatchObject({
      planId: 'enterprise',
      paymentMethod: 'Mastercard •••• 4444',
    });

    const card = await put('/api/client/payment-method', cookie, { paymentMethodId: 'pm_card_visa' });
    expect(card.statusCode).toBe(200);
    expect(card.json()).toEqual({ success: true, paymentMethod: 'Visa •••• 4242' });
    expect(sim.state.subscriptions.get(after[0].id)?.default_payment_method).toMatch(/^pm_/);
    expect((await getSubscription(cookie)).paymentMethod).toBe('Visa •••• 4242');

    const declined = await put('/api/client/payment-method', cookie, {
      paymentMethodId: 'pm_card_chargeDeclined',
    });
    expect(declined.statusCode).toBe(402);
    expect((await getSubscription(cookie)).paymentMethod).toBe('Visa •••• 4242');
  });

  it('refuses a payment-method change without a subscription, and bad input', async () => {
    const { cookie } = await newClient();
    expect(
      (await put('/api/client/payment-method', cookie, { paymentMethodId: 'pm_card_visa' })).statusCode,
    ).toBe(404);
    const bad = await pay(cookie, 'starter', 'card_123');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ paymentMethodId: 'Invalid payment method' });
    const unknownPlan = await pay(cookie, 'platinum', 'pm_card_visa');
    expect(unknownPlan.statusCode).toBe(404);
    expect(unknownPlan.json()).toEqual({ message: 'Plan not found' });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/client/process-stripe-payment',
      payload: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('verifies webhook signatures on the raw body', async () => {
    const payload = JSON.stringify({
      id: 'evt_sig_test',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_x' } },
    });
    const good = await signedWebhook(payload);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ received: true });

    const wrongSecret = await signedWebhook(payload, 'whsec_someone_else');
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json()).toEqual({ message: 'Invalid webhook signature.' });

    // Same signature, one byte changed: re-serialised JSON would pass a naive check; the raw body does not.
    const header = stripeSignatureHeader(payload, WEBHOOK_SECRET);
    const altered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload: payload.replace('cus_x', 'cus_y'),
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    expect(altered.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
  });

  it('activates a 3-D Secure purchase from the webhook alone, and ignores replays', async () => {
    const { client, cookie } = await newClient();
    const res = await pay(cookie, 'starter', 'pm_card_authenticationRequired');
    const { clientSecret } = res.json();
    const eventsBefore = new Set(sim.state.events.keys());
    await passThreeDSecure(clientSecret);
    const customerId = (await stored(client.id)).stripe_customer_id;
    const subscriptionId = simSubscriptionsOf(customerId)[0].id;
    // Stripe pays the invoice and activates the subscription a moment after the confirmation.
    const raisedPaid = () =>
      [...sim.state.events.values()].find((e) => !eventsBefore.has(e.id) && e.type === 'invoice.paid');
    expect(raisedPaid()).toBeUndefined();
    await expect.poll(raisedPaid, { timeout: 5_000 }).toBeDefined();
    const paid = raisedPaid();

    const first = await signedWebhook(JSON.stringify(paid));
    expect(first.json()).toEqual({ received: true });
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
    const row = await t.deps.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.stripe_subscription_id).toBe(subscriptionId);

    const replay = await signedWebhook(JSON.stringify(paid));
    expect(replay.json()).toEqual({ received: true, duplicate: true });

    // Stripe ends the subscription: the deletion event makes it end here too.
    await fetch(`${sim.url}/v1/subscriptions/${subscriptionId}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer sk_test_api' },
    });
    const deleted = [...sim.state.events.values()].find(
      (e) =>
        e.type === 'customer.subscription.deleted' && (e.data.object as { id: string }).id === subscriptionId,
    );
    expect(deleted).toBeDefined();
    expect((await signedWebhook(JSON.stringify(deleted))).statusCode).toBe(200);
    expect(await getSubscription(cookie)).toBeNull();
  });

  it('ignores signed events about subscriptions that are not ours', async () => {
    const { client, cookie } = await newClient();
    const res = await pay(cookie, 'starter', 'pm_card_visa');
    expect(res.json().success).toBe(true);
    const foreign = await signedWebhook(
      JSON.stringify({
        id: 'evt_foreign',
        object: 'event',
        type: 'customer.subscription.updated',
        data: { object: { id: 'sub_doesnotexist', object: 'subscription' } },
      }),
    );
    expect(foreign.statusCode).toBe(200);
    expect((await getSubscription(cookie)).status).toBe('active');
    expect(client.id).toBeTruthy();
  });
  it('cancels at the period end, once, and only the session client’s subscription', async () => {
    const owner = await newClient();
    const other = await newClient();
    await pay(owner.cookie, 'professional', 'pm_card_authenticationRequired').then(async (res) => {
      await passThreeDSecure(res.json().clientSecret);
      await post('/api/client/confirm-stripe-payment', owner.cookie, { planId: 'professional' });
    });
    const active = await getSubscription(owner.cookie);
    expect(active).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    // Another client sees none, cannot cancel it and cannot confirm it.
    expect(await getSubscription(other.cookie)).toBeNull();
    const foreignCancel = await post('/api/client/subscription/cancel', other.cookie, {});
    expect(foreignCancel.statusCode).toBe(404);
    expect(foreignCancel.json()).toEqual({ message: 'No active subscription' });
    const foreignConfirm = await post('/api/client/confirm-stripe-payment', other.cookie, {
      planId: 'professional',
    });
    expect(foreignConfirm.statusCode).toBe(404);
    expect(
      (await put('/api/client/payment-method', other.cookie, { paymentMethodId: 'pm_card_visa' })).statusCode,
    ).toBe(404);
    expect(await getSubscription(owner.cookie)).toEqual(active);

    const cancelled = await post('/api/client/subscription/cancel', owner.cookie, {});
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      success: true,
      subscription: {
        planId: 'professional',
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: active.currentPeriodEnd,
      },
    });
    const customerId = (await stored(owner.client.id)).stripe_customer_id;
    expect(simSubscriptionsOf(customerId)[0].cancel_at_period_end).toBe(true);

    const again = await post('/api/client/subscription/cancel', owner.cookie, {});
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(cancelled.json());

    // Buying the same plan again withdraws the cancellation instead of charging a second time.
    const resumed = await pay(owner.cookie, 'professional', 'pm_card_visa');
    expect(resumed.json().success).toBe(true);
    expect(await getSubscription(owner.cookie)).toMatchObject({
      planId: 'professional',
      cancelAtPeriodEnd: false,
    });
    expect(simSubscriptionsOf(customerId)).toHaveLength(1);
    expect(simSubscriptionsOf(customerId)[0].cancel_at_period_end).toBe(false);
  });

  it('ends the subscription when the paid period is over', async () => {
    const { client, cookie } = await newClient();
    await pay(cookie, 'starter', 'pm_card_visa');
    await post('/api/client/subscription/cancel', cookie, {});
    await t.deps.db
      .updateTable('subscriptions')
      .set({ current_period_end: Date.now() - 1000 })
      .where('client_id', '=', client.id)
      .execute();
    expect(await getSubscription(cookie)).toBeNull();
    expect((await post('/api/client/subscription/cancel', cookie, {})).statusCode).toBe(404);
  });
  it('lets the buyer try again after leaving a 3-D Secure challenge, ending the abandoned attempt', async () => {
    const { client, cookie } = await newClient();
    const first = (await pay(cookie, 'starter', 'pm_card_authenticationRequired')).json();
    expect(first.requiresAction).toBe(true);
    const again = (await pay(cookie, 'starter', 'pm_card_authenticationRequired')).json();
    expect(again.requiresAction).toBe(true);
    expect(again.clientSecret).not.toBe(first.clientSecret);
    const subs = simSubscriptionsOf((await stored(client.id)).stripe_customer_id);
    expect(subs.map((s) => s.status).sort()).toEqual(['canceled', 'incomplete']);
    await passThreeDSecure(again.clientSecret);
    expect((await post('/api/client/confirm-stripe-payment', cookie, { planId: 'starter' })).statusCode).toBe(
      200,
    );
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
  });

  it('applies every plan change, also back to an earlier plan with the same card', async () => {
    const { cookie } = await newClient();
    for (const planId of ['starter', 'enterprise', 'starter', 'enterprise']) {
      const res = await pay(cookie, planId, 'pm_card_visa');
      expect(res.json().success, planId).toBe(true);
      expect((await getSubscription(cookie)).planId).toBe(planId);
    }
  });
});
