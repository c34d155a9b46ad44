/**
 * Renewals charged off-session (defect 4), against the Stripe stand-in: a card saved
 * through a SetupIntent, or by a first payment with save_default_payment_method, renews without
 * the customer; one merely attached makes the bank ask, and the client completes that renewal
 * from a banner with Stripe.js. Card 3155 is Stripe's "authentication required unless set up".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim, stripeSignatureHeader } from '../../sim/stripe';
import type { ClientRow } from '../../src/server/db/schema';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const WEBHOOK_SECRET = 'whsec_renewals';
const SET_UP_CARD = 'pm_card_authenticationRequiredSetupForOffSession';

describe(`off-session renewals (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: StripeSim;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_renew' });
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_renew',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_renew',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: sim.url,
        STRIPE_CONFIRM_WAIT_MS: '3000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });
  const subscriptionOf = async (cookie: string) =>
    (await send('GET', '/api/client/subscription', cookie)).json();
  const stripeSubOf = async (client: ClientRow) => {
    const row = await t.deps.db
      .selectFrom('subscriptions')
      .select('stripe_subscription_id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    return sim.state.subscriptions.get(row.stripe_subscription_id!)!;
  };

  async function subscribed(paymentMethodId = 'pm_card_visa') {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const res = await send('POST', '/api/client/process-stripe-payment', cookie, {
      planId: 'starter',
      paymentMethodId,
    });
    let body = res.json();
    if (body.requiresAction) {
      const intent = await stripeJs('payment_intents', body.clientSecret);
      body = (
        await send('POST', '/api/client/confirm-stripe-payment', cookie, {
          planId: 'starter',
          paymentMethodId: intent.payment_method,
        })
      ).json();
    }
    expect(body.success).toBe(true);
    return { client, cookie };
  }

  /** What Stripe.js does with a client secret (confirmCardPayment / confirmCardSetup), 3-D Secure passed. */
  async function stripeJs(
    kind: 'payment_intents' | 'setup_intents',
    clientSecret: string,
    paymentMethod?: string,
  ) {
    const id = clientSecret.split('_secret_')[0];
    const body = new URLSearchParams({ client_secret: clientSecret });
    if (paymentMethod) body.set('payment_method', paymentMethod);
    const res = await fetch(`${sim.url}/v1/${kind}/${id}/confirm`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_renew', 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; status: string; payment_method: string };
  }

  /** Delivers, signed, every event the stand-in raised since `since` about `subscriptionId`'s invoices. */
  async function deliverInvoiceEvents(since: Set<string>, subscriptionId: string) {
    const events = [...sim.state.events.values()].filter(
      (e) =>
        !since.has(e.id) &&
        e.type.startsWith('invoice.') &&
        (e.data.object as { parent?: { subscription_details?: { subscription?: string } } }).parent
          ?.subscription_details?.subscription === subscriptionId,
    );
    for (const event of events) {
      const payload = JSON.stringify(event);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripeSignatureHeader(payload, WEBHOOK_SECRET),
        },
      });
      expect(res.statusCode).toBe(200);
    }
    return events.map((e) => e.type);
  }

  const outboxOf = (client: ClientRow) =>
    t.deps.db
      .selectFrom('outbox')
      .select(['topic', 'payload_json'])
      .where('client_id', '=', client.id)
      .execute();

  it('saves a new card through a SetupIntent, so the renewal is charged without the customer', async () => {
    const { client, cookie } = await subscribed();
    const setup = await send('POST', '/api/client/payment-method/setup-intent', cookie);
    expect(setup.statusCode).toBe(200);
    const { clientSecret } = setup.json();
    expect(clientSecret).toMatch(/^seti_.+_secret_/);
    const intent = await stripeJs('setup_intents', clientSecret, SET_UP_CARD);
    expect(intent.status).toBe('succeeded');

    const saved = await send('PUT', '/api/client/payment-method', cookie, { setupIntentId: intent.id });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ success: true, paymentMethod: 'Visa •••• 3155' });
    const sub = await stripeSubOf(client);
    expect(sub.default_payment_method).toBe(intent.payment_method);

    const before = new Set(sim.state.events.keys());
    await sim.advanceSubscription(sub.id);
    expect(sim.state.subscriptions.get(sub.id)?.status).toBe('active');
    expect(await deliverInvoiceEvents(before, sub.id)).toEqual(['invoice.paid']);
    expect(await subscriptionOf(cookie)).toMatchObject({ status: 'active', actionRequired: false });
  });

  it('a first payment through 3-D Secure also sets the card up for the renewals', async () => {
    const { client, cookie } = await subscribed(SET_UP_CARD);
    const sub = await stripeSubOf(client);
    expect(sub.payment_settings.save_default_payment_method).toBe('on_subscription');
    await sim.advanceSubscription(sub.id);
    expect(sim.state.subscriptions.get(sub.id)?.status).toBe('active');
    expect(await subscriptionOf(cookie)).toMatchObject({ status: 'active', paymentMethod: 'Visa •••• 3155' });
  });

  it('a renewal the bank wants confirmed shows a banner, e-mails once, and completes with Stripe.js', async () => {
    const { client, cookie } = await subscribed();
    // Attached without a SetupIntent (the old way, still accepted): the bank asks at renewal.
    expect(
      (await send('PUT', '/api/client/payment-method', cookie, { paymentMethodId: SET_UP_CARD })).statusCode,
    ).toBe(200);
    const sub = await stripeSubOf(client);
    const before = new Set(sim.state.events.keys());
    await sim.advanceSubscription(sub.id);
    expect(sim.state.subscriptions.get(sub.id)?.status).toBe('past_due');
    expect(await deliverInvoiceEvents(before, sub.id)).toEqual(['invoice.payment_action_required']);
    expect(await subscriptionOf(cookie)).toMatchObject({ status: 'past_due', actionRequired: true });
    // Stripe re-delivers; the client still gets one e-mail.
    await deliverInvoiceEvents(before, sub.id);
    const mails = (await outboxOf(client)).filter((m) => m.topic === 'payment.action_required');
    expect(mails).toHaveLength(1);
    expect(JSON.parse(mails[0].payload_json)).toMatchObject({
      to: client.email,
      subject: 'Please confirm your subscription payment',
    });

    // Confirming before the bank has answered changes nothing.
    expect((await send('POST', '/api/client/payment-action/confirm', cookie)).statusCode).toBe(402);
    const action = await send('GET', '/api/client/payment-action', cookie);
    expect(action.statusCode).toBe(200);
    expect(action.json()).toMatchObject({ amountDue: 49, currency: 'usd' });
    expect((await stripeJs('payment_intents', action.json().clientSecret)).status).toBe('succeeded');
    const done = await send('POST', '/api/client/payment-action/confirm', cookie);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true });
    expect(await subscriptionOf(cookie)).toMatchObject({ status: 'active', actionRequired: false });
    expect((await send('GET', '/api/client/payment-action', cookie)).statusCode).toBe(404);
  });

  it('e-mails a failed renewal once, and asks the client for nothing', async () => {
    const { client, cookie } = await subscribed();
    await send('PUT', '/api/client/payment-method', cookie, {
      paymentMethodId: 'pm_card_chargeCustomerFail',
    });
    const sub = await stripeSubOf(client);
    const before = new Set(sim.state.events.keys());
    await sim.advanceSubscription(sub.id);
    expect(await deliverInvoiceEvents(before, sub.id)).toEqual(['invoice.payment_failed']);
    const failed = (await outboxOf(client)).filter((m) => m.topic === 'payment.failed');
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0].payload_json).subject).toBe('Your subscription payment failed');
    expect((await subscriptionOf(cookie)).actionRequired).toBe(false);
  });

  it('takes only this client’s confirmed SetupIntent, and refuses bad input', async () => {
    const a = await subscribed();
    const b = await subscribed();
    const secretOfB = (await send('POST', '/api/client/payment-method/setup-intent', b.cookie)).json()
      .clientSecret;
    const intentOfB = await stripeJs('setup_intents', secretOfB, 'pm_card_visa');
    const stolen = await send('PUT', '/api/client/payment-method', a.cookie, { setupIntentId: intentOfB.id });
    expect(stolen.statusCode).toBe(404);
    expect(await subscriptionOf(a.cookie)).toMatchObject({ paymentMethod: 'Visa •••• 4242' });

    const secretOfA = (await send('POST', '/api/client/payment-method/setup-intent', a.cookie)).json()
      .clientSecret;
    const unconfirmed = await send('PUT', '/api/client/payment-method', a.cookie, {
      setupIntentId: secretOfA.split('_secret_')[0],
    });
    expect(unconfirmed.statusCode).toBe(402);
    expect(unconfirmed.json().message).toBe(
      'The new card was not confirmed with your bank. Please try again.',
    );

    for (const body of [
      { setupIntentId: 'pi_123' },
      { setupIntentId: 'seti_1', paymentMethodId: 'pm_card_visa' },
      {},
    ]) {
      expect((await send('PUT', '/api/client/payment-method', a.cookie, body)).statusCode).toBe(400);
    }
    expect((await send('GET', '/api/client/payment-action', a.cookie)).statusCode).toBe(404);
    expect((await send('POST', '/api/client/payment-action/confirm', a.cookie)).statusCode).toBe(404);

    const noSubscription = await createClient(t.deps);
    const cookie = await loginClient(t.app, noSubscription.email);
    expect((await send('POST', '/api/client/payment-method/setup-intent', cookie)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/client/payment-method/setup-intent' });
    expect(anonymous.statusCode).toBe(401);
  });
});
