/**
 * Plan change on a card subscription and Resume, against the Stripe stand-in with the
 * real adapter and SDK: the price Stripe previews is the price charged, the saved card pays, a
 * pending cancellation stays pending, Resume withdraws it, and every way in that must go to
 * checkout (PayPal, no subscription) or is wrong (same plan, unknown plan, bad body) says so.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim, stripeSignatureHeader } from '../../sim/stripe';
import type { ClientRow } from '../../src/server/db/schema';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const DAY = 86_400_000;

describe(`plan change and resume (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: StripeSim;
  // One clock for the app and the stand-in, so a change can happen days into the period.
  let clock = Date.now();
  const now = () => clock;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_plans', now });
    t = await createTestApp({
      now,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_plans',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_plans',
        STRIPE_WEBHOOK_SECRET: 'whsec_plans',
        STRIPE_API_URL: sim.url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const send = (method: 'GET' | 'POST', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { cookie } });
  const preview = (cookie: string, planId: string) =>
    send('GET', `/api/client/subscription/change-preview?planId=${encodeURIComponent(planId)}`, cookie);
  const change = (cookie: string, planId: string, prorationDate: number) =>
    send('POST', '/api/client/subscription/change-plan', cookie, { planId, prorationDate });
  const getSubscription = async (cookie: string) =>
    (await send('GET', '/api/client/subscription', cookie)).json();
  const customerOf = async (client: ClientRow) =>
    (await t.deps.db.selectFrom('clients').selectAll().where('id', '=', client.id).executeTakeFirstOrThrow())
      .stripe_customer_id;
  const stripeSubOf = async (client: ClientRow) => {
    const customer = await customerOf(client);
    const subs = [...sim.state.subscriptions.values()].filter((s) => s.customer === customer);
    expect(subs).toHaveLength(1);
    return subs[0];
  };
  const invoicesOf = async (client: ClientRow) => {
    const customer = await customerOf(client);
    return [...sim.state.invoices.values()].filter((i) => i.customer === customer);
  };

  /** What Stripe.js does when the customer passes the 3-D Secure challenge. */
  async function passThreeDSecure(clientSecret: string) {
    const res = await fetch(`${sim.url}/v1/payment_intents/${clientSecret.split('_secret_')[0]}/confirm`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_plans', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: clientSecret }).toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; payment_method: string };
  }

  /** A client paying `planId` by card, `daysIn` days into the period, logged in at that time. */
  async function subscribed(planId: string, daysIn = 10, card = 'pm_card_visa') {
    const client = await createClient(t.deps);
    let cookie = await loginClient(t.app, client.email);
    const res = await send('POST', '/api/client/process-stripe-payment', cookie, {
      planId,
      paymentMethodId: card,
    });
    if (res.json().requiresAction) {
      const intent = await passThreeDSecure(res.json().clientSecret);
      await send('POST', '/api/client/confirm-stripe-payment', cookie, {
        planId,
        paymentMethodId: intent.payment_method,
      });
    } else {
      expect(res.json()).toMatchObject({ success: true });
    }
    expect(await getSubscription(cookie)).toMatchObject({ planId, status: 'active' });
    clock += daysIn * DAY;
    cookie = await loginClient(t.app, client.email);
    return { client, cookie };
  }

  /** Stripe's arithmetic, by the second, from the stand-in's own period. */
  function expectedProration(
    sub: { items: { data: { current_period_start: number; current_period_end: number }[] } },
    at: number,
    oldCents: number,
    newCents: number,
  ) {
    const { current_period_start: start, current_period_end: end } = sub.items.data[0];
    const share = (end - at) / (end - start);
    return Math.round(newCents * share) - Math.round(oldCents * share);
  }

  it('charges exactly the previewed proration to the saved card', async () => {
    const { client, cookie } = await subscribed('starter');
    const before = await stripeSubOf(client);
    const pmsBefore = [...sim.state.paymentMethods.values()].filter((p) => p.customer === before.customer);

    const res = await preview(cookie, 'professional');
    expect(res.statusCode).toBe(200);
    const shown = res.json();
    const net = expectedProration(before, shown.prorationDate, 4900, 14900);
    // Ten days into a month: about two thirds of the $100 difference.
    expect(net).toBeGreaterThan(6000);
    expect(net).toBeLessThan(7200);
    expect(shown).toMatchObject({
      planId: 'professional',
      currentPlan: { id: 'starter', monthlyPrice: 49 },
      newPlan: { id: 'professional', name: 'Professional', monthlyPrice: 149 },
      amountDueNow: net / 100,
      prorationTotal: net / 100,
      creditAfter: 0,
      currency: 'usd',
      paymentMethod: 'Visa •••• 4242',
      cancelAtPeriodEnd: false,
    });
    expect(Date.parse(shown.nextBillingDate)).toBe(before.items.data[0].current_period_end * 1000);
    expect(Math.abs(shown.prorationDate - Math.floor(clock / 1000))).toBeLessThanOrEqual(1);

    // Time passes while the dialog is open; the charge is still the one shown.
    clock += 90_000;
    const done = await change(cookie, 'professional', shown.prorationDate);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      success: true,
      message: 'Your plan is now Professional',
      amountCharged: shown.amountDueNow,
      subscription: { planId: 'professional', status: 'active', paymentMethod: 'Visa •••• 4242' },
    });

    const after = await stripeSubOf(client);
    expect(after.id).toBe(before.id);
    expect(after.items.data[0].price.unit_amount).toBe(14900);
    expect(after.items.data[0].current_period_end).toBe(before.items.data[0].current_period_end);
    expect(after.default_payment_method).toBe(before.default_payment_method);
    expect(after.pending_update).toBeNull();
    // No new card was needed: the customer's payment methods are the ones it had.
    expect([...sim.state.paymentMethods.values()].filter((p) => p.customer === before.customer)).toHaveLength(
      pmsBefore.length,
    );
    const update = (await invoicesOf(client)).filter((i) => i.billing_reason === 'subscription_update');
    expect(update).toHaveLength(1);
    expect(update[0]).toMatchObject({ status: 'paid', amount_paid: net, total: net });
    expect(update[0].lines.data.map((l) => l.amount).sort((a, b) => a - b)).toEqual(
      [
        -Math.round(
          (4900 * (before.items.data[0].current_period_end - shown.prorationDate)) /
            (before.items.data[0].current_period_end - before.items.data[0].current_period_start),
        ),
        Math.round(
          (14900 * (before.items.data[0].current_period_end - shown.prorationDate)) /
            (before.items.data[0].current_period_end - before.items.data[0].current_period_start),
        ),
      ].sort((a, b) => a - b),
    );

    const payments = await t.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('client_id', '=', client.id)
      .where('idempotency_key', 'like', 'plan-change-%')
      .execute();
    expect(payments).toMatchObject([{ status: 'plan_changed', amount_cents: net, plan_id: 'professional' }]);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'professional', cancelAtPeriodEnd: false });
  });

  it('turns a downgrade into account credit, charging nothing now', async () => {
    const { client, cookie } = await subscribed('business', 5);
    const before = await stripeSubOf(client);
    const shown = (await preview(cookie, 'starter')).json();
    const net = expectedProration(before, shown.prorationDate, 39900, 4900);
    expect(net).toBeLessThan(0);
    expect(shown).toMatchObject({ amountDueNow: 0, prorationTotal: net / 100, creditAfter: -net / 100 });

    const done = await change(cookie, 'starter', shown.prorationDate);
    expect(done.json()).toMatchObject({
      success: true,
      amountCharged: 0,
      subscription: { planId: 'starter' },
    });
    expect(sim.state.customers.get(before.customer)?.balance).toBe(net);
  });

  it('keeps a pending cancellation through a plan change; Resume withdraws it', async () => {
    const { client, cookie } = await subscribed('starter', 3);
    const cancelled = await send('POST', '/api/client/subscription/cancel', cookie);
    expect(cancelled.json().subscription.cancelAtPeriodEnd).toBe(true);

    const shown = (await preview(cookie, 'business')).json();
    expect(shown).toMatchObject({ cancelAtPeriodEnd: true, nextBillingDate: null });
    expect(shown.currentPeriodEnd).toBe(cancelled.json().subscription.currentPeriodEnd);
    const done = await change(cookie, 'business', shown.prorationDate);
    expect(done.json()).toMatchObject({
      success: true,
      subscription: { planId: 'business', cancelAtPeriodEnd: true },
    });
    expect((await stripeSubOf(client)).cancel_at_period_end).toBe(true);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'business', cancelAtPeriodEnd: true });

    const resumed = await send('POST', '/api/client/subscription/resume', cookie);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({
      success: true,
      subscription: { planId: 'business', status: 'active', cancelAtPeriodEnd: false },
    });
    expect((await stripeSubOf(client)).cancel_at_period_end).toBe(false);
    expect(await getSubscription(cookie)).toMatchObject({ cancelAtPeriodEnd: false });
    // Resuming one that renews anyway changes nothing.
    const again = await send('POST', '/api/client/subscription/resume', cookie);
    expect(again.json()).toMatchObject({ success: true, subscription: { cancelAtPeriodEnd: false } });
  });

  it('changes once when Change plan is pressed twice', async () => {
    const { client, cookie } = await subscribed('starter');
    const shown = (await preview(cookie, 'enterprise')).json();
    const [a, b] = await Promise.all([
      change(cookie, 'enterprise', shown.prorationDate),
      change(cookie, 'enterprise', shown.prorationDate),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toMatchObject({ success: true, amountCharged: shown.amountDueNow });
    expect(b.json()).toMatchObject({ success: true, amountCharged: shown.amountDueNow });
    // A late repeat, after the first finished, is answered the same way and charges nothing.
    const late = await change(cookie, 'enterprise', shown.prorationDate);
    expect(late.json()).toMatchObject({ success: true, amountCharged: shown.amountDueNow });
    const updates = (await invoicesOf(client)).filter((i) => i.billing_reason === 'subscription_update');
    expect(updates).toHaveLength(1);
  });

  it('asks for 3-D Secure and changes the plan only once the bank confirmed', async () => {
    const { client, cookie } = await subscribed('starter', 7, 'pm_card_authenticationRequired');
    const shown = (await preview(cookie, 'professional')).json();
    const res = await change(cookie, 'professional', shown.prorationDate);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: false, requiresAction: true });
    expect(body.clientSecret).toMatch(/^pi_.+_secret_/);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter' });
    expect((await stripeSubOf(client)).pending_update).not.toBeNull();
    expect((await stripeSubOf(client)).items.data[0].price.unit_amount).toBe(4900);

    const early = await send('POST', '/api/client/subscription/confirm-change', cookie, {
      planId: 'professional',
    });
    expect(early.statusCode).toBe(402);

    expect((await passThreeDSecure(body.clientSecret)).status).toBe('succeeded');
    const confirmed = await send('POST', '/api/client/subscription/confirm-change', cookie, {
      planId: 'professional',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ success: true, subscription: { planId: 'professional' } });
    const sub = await stripeSubOf(client);
    expect(sub.pending_update).toBeNull();
    expect(sub.items.data[0].price.unit_amount).toBe(14900);
    const update = (await invoicesOf(client)).find((i) => i.billing_reason === 'subscription_update');
    expect(update).toMatchObject({ status: 'paid', amount_paid: Math.round(shown.amountDueNow * 100) });
  });

  it('picks the new plan up from Stripe’s webhook when the browser never comes back after 3-D Secure', async () => {
    const { client, cookie } = await subscribed('starter', 2, 'pm_card_authenticationRequired');
    const shown = (await preview(cookie, 'business')).json();
    const body = (await change(cookie, 'business', shown.prorationDate)).json();
    expect(body.requiresAction).toBe(true);
    const before = new Set(sim.state.events.keys());
    await passThreeDSecure(body.clientSecret);
    const sub = await stripeSubOf(client);
    // Stripe applies the pending change a moment after the payment, then says so.
    const applied = () =>
      [...sim.state.events.values()]
        .filter(
          (e) =>
            !before.has(e.id) &&
            e.type === 'customer.subscription.updated' &&
            (e.data.object as { id: string }).id === sub.id,
        )
        .at(-1);
    await expect.poll(applied, { timeout: 5_000 }).toBeDefined();
    const event = applied();
    const payload = JSON.stringify(event);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignatureHeader(payload, 'whsec_plans'),
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'business', status: 'active' });
    // The browser coming back late still gets its answer.
    const late = await send('POST', '/api/client/subscription/confirm-change', cookie, {
      planId: 'business',
    });
    expect(late.json()).toMatchObject({ success: true, subscription: { planId: 'business' } });
  });

  it('answers a declined saved card with 402 and keeps the plan', async () => {
    const { client, cookie } = await subscribed('starter', 4);
    // The card on file now fails when charged (attaches fine, declines every charge).
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/client/payment-method',
      payload: { paymentMethodId: 'pm_card_chargeCustomerFail' },
      headers: { cookie },
    });
    expect(put.statusCode).toBe(200);
    const shown = (await preview(cookie, 'business')).json();
    expect(shown.paymentMethod).toMatch(/•••• 0341$/);
    const res = await change(cookie, 'business', shown.prorationDate);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toMatch(/declined/i);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', status: 'active' });
    const sub = await stripeSubOf(client);
    expect(sub.pending_update).toBeNull();
    expect(sub.status).toBe('active');
    expect(sub.items.data[0].price.unit_amount).toBe(4900);
    const update = (await invoicesOf(client)).find((i) => i.billing_reason === 'subscription_update');
    expect(update?.status).toBe('void');
  });

  it('refuses the same plan, an unknown plan, a stale price and a bad body', async () => {
    const { cookie } = await subscribed('professional', 2);
    const same = await preview(cookie, 'professional');
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe('This is already your plan');
    expect((await change(cookie, 'professional', Math.floor(clock / 1000))).statusCode).toBe(409);

    const unknown = await preview(cookie, 'no-such-plan');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Plan not found');
    expect((await change(cookie, 'no-such-plan', Math.floor(clock / 1000))).statusCode).toBe(404);

    const stale = await change(cookie, 'business', Math.floor(clock / 1000) - 3600);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/review the plan change again/);
    expect((await change(cookie, 'business', Math.floor(clock / 1000) + 3600)).statusCode).toBe(409);

    for (const payload of [
      {},
      { planId: 'business' },
      { planId: 'business', prorationDate: 'soon' },
      { planId: 'business', prorationDate: 12.5 },
      { planId: '', prorationDate: 1 },
    ]) {
      const res = await send('POST', '/api/client/subscription/change-plan', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await send('GET', '/api/client/subscription/change-preview', cookie)).statusCode).toBe(400);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'professional' });
  });

  it('sends clients without a card subscription to checkout', async () => {
    const none = await createClient(t.deps);
    const cookie = await loginClient(t.app, none.email);
    const res = await preview(cookie, 'business');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/subscribe at checkout/);
    expect((await change(cookie, 'business', Math.floor(clock / 1000))).statusCode).toBe(409);
    expect((await send('POST', '/api/client/subscription/resume', cookie)).statusCode).toBe(404);

    // PayPal: cancelled at PayPal at once, so neither a plan change here nor Resume.
    const paypal = await createClient(t.deps);
    await t.deps.db
      .insertInto('subscriptions')
      .values({
        id: randomUUID(),
        client_id: paypal.id,
        plan_id: 'starter',
        status: 'active',
        provider: 'paypal',
        paypal_subscription_id: 'I-PAYPAL123',
        stripe_subscription_id: null,
        card_brand: null,
        card_last4: null,
        card_exp: null,
        current_period_end: clock + 20 * DAY,
        cancel_at_period_end: 1,
        created_at: clock,
        updated_at: clock,
      })
      .execute();
    const paypalCookie = await loginClient(t.app, paypal.email);
    const paypalPreview = await preview(paypalCookie, 'business');
    expect(paypalPreview.statusCode).toBe(409);
    expect(paypalPreview.json().message).toMatch(/subscribe at checkout/);
    const resume = await send('POST', '/api/client/subscription/resume', paypalCookie);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().message).toMatch(/subscribe again/);
    expect(await getSubscription(paypalCookie)).toMatchObject({
      cancelAtPeriodEnd: true,
      paymentMethod: 'PayPal',
    });
  });

  it('never lets another client see or change this subscription', async () => {
    const { client, cookie } = await subscribed('starter', 6);
    await send('POST', '/api/client/subscription/cancel', cookie);
    const shown = (await preview(cookie, 'business')).json();

    const other = await createClient(t.deps);
    const otherCookie = await loginClient(t.app, other.email);
    expect((await preview(otherCookie, 'business')).statusCode).toBe(409);
    expect((await change(otherCookie, 'business', shown.prorationDate)).statusCode).toBe(409);
    expect(
      (await send('POST', '/api/client/subscription/confirm-change', otherCookie, { planId: 'business' }))
        .statusCode,
    ).toBe(409);
    expect((await send('POST', '/api/client/subscription/resume', otherCookie)).statusCode).toBe(404);
    expect(await getSubscription(cookie)).toMatchObject({ planId: 'starter', cancelAtPeriodEnd: true });
    expect((await stripeSubOf(client)).cancel_at_period_end).toBe(true);
  });

  it('requires a client session', async () => {
    for (const [method, url] of [
      ['GET', '/api/client/subscription/change-preview?planId=starter'],
      ['POST', '/api/client/subscription/change-plan'],
      ['POST', '/api/client/subscription/confirm-change'],
      ['POST', '/api/client/subscription/resume'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
