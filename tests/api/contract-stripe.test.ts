/**
 * Contract tests for Stripe: the real adapter (the official SDK) drives the Stripe
 * stand-in through a recording proxy over every call billing makes, and every object the
 * stand-in answers, and every event it sends, is held against Stripe's published example of that
 * object (specs/stripe/fixtures3.json, see tests/helpers/stripe-fixtures.ts). The requests need
 * no runtime check: the SDK's parameter types are generated from Stripe's OpenAPI document, so
 * `npm run typecheck` refuses a request Stripe does not define.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim } from '../../sim/stripe';
import { createStripeGateway, type StripeGateway } from '../../src/server/providers/payments/stripe';
import { type RecordingProxy, startRecordingProxy } from '../helpers/recording-proxy';
import { stripeShapeProblems } from '../helpers/stripe-fixtures';
import { TEST_DB } from '../helpers/test-app';

describe(`Stripe contract (${TEST_DB})`, () => {
  let sim: StripeSim;
  let proxy: RecordingProxy;
  let stripe: StripeGateway;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_contract' });
    sim.setActivationDelay(0);
    proxy = await startRecordingProxy(sim.url);
    stripe = createStripeGateway({ secretKey: 'sk_test_contract', apiUrl: proxy.url, webhookSecret: null });
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  /** What Stripe.js sends with the publishable key once the customer passed 3-D Secure. */
  async function stripeJs(
    kind: 'payment_intents' | 'setup_intents',
    clientSecret: string,
    paymentMethod?: string,
  ) {
    const body = new URLSearchParams({ client_secret: clientSecret });
    if (paymentMethod) body.set('payment_method', paymentMethod);
    const res = await fetch(`${proxy.url}/v1/${kind}/${clientSecret.split('_secret_')[0]}/confirm`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer pk_test_contract',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: body.toString(),
    });
    return (await res.json()) as { id: string; payment_method: string };
  }

  it('every object the stand-in answers has the shape of Stripe’s published example', async () => {
    const starter = await stripe.ensurePrice({ planId: 'starter', name: 'Starter', monthlyPriceCents: 4900 });
    const business = await stripe.ensurePrice({
      planId: 'business',
      name: 'Business',
      monthlyPriceCents: 39900,
    });
    await stripe.ensurePrice({
      planId: 'starter',
      name: 'Starter',
      monthlyPriceCents: 4900,
      existingPriceId: starter,
    });
    const customerId = await stripe.ensureCustomer({
      existingId: null,
      email: 'c@example.com',
      name: 'C',
      clientId: 'c1',
    });
    await stripe.ensureCustomer({
      existingId: customerId,
      email: 'c@example.com',
      name: 'C',
      clientId: 'c1',
    });
    const card = await stripe.attachPaymentMethod(customerId, 'pm_card_visa');
    const sub = await stripe.createSubscription({
      customerId,
      priceId: starter,
      paymentMethodId: card.paymentMethodId,
      clientId: 'c1',
      planId: 'starter',
      idempotencyKey: 'contract-sub',
    });
    await stripe.getSubscriptionPayment(sub.id);
    const preview = await stripe.previewPriceChange({
      customerId,
      subscriptionId: sub.id,
      priceId: business,
      prorationDate: Math.floor(Date.now() / 1000),
    });
    await stripe.changePriceNow({
      subscriptionId: sub.id,
      priceId: business,
      prorationDate: preview.prorationDate,
      idempotencyKey: 'contract-change',
    });
    await stripe.setCancelAtPeriodEnd(sub.id, true);
    await stripe.setCancelAtPeriodEnd(sub.id, false);
    const setup = await stripe.createSetupIntent({ customerId, clientId: 'c1' });
    const confirmed = await stripeJs(
      'setup_intents',
      setup.clientSecret,
      'pm_card_authenticationRequiredSetupForOffSession',
    );
    await stripe.getSetupIntent(setup.id);
    await stripe.setDefaultCard({
      customerId,
      paymentMethodId: confirmed.payment_method,
      subscriptionId: sub.id,
    });
    await stripe.replacePaymentMethod({
      customerId,
      paymentMethodId: 'pm_card_authenticationRequired',
      subscriptionId: sub.id,
    });
    await sim.advanceSubscription(sub.id);
    const renewal = sim.state.subscriptions.get(sub.id)!.latest_invoice as string;
    const payment = await stripe.getInvoicePayment(renewal);
    expect(payment.clientSecret).toMatch(/_secret_/);
    await stripeJs('payment_intents', payment.clientSecret!);
    await stripe.cancelNow(sub.id);
    await expect(stripe.getSubscription('sub_missing')).rejects.toThrow();

    const answers = proxy.exchanges.filter((e) => e.status === 200);
    expect(answers.length).toBeGreaterThan(20);
    const problems = answers.flatMap((e) =>
      stripeShapeProblems(JSON.parse(e.responseBody), `${e.method} ${e.path}`),
    );
    expect(problems).toEqual([]);

    // Errors come in Stripe's envelope: {error: {type, message, …}}.
    for (const e of proxy.exchanges.filter((x) => x.status >= 400)) {
      expect(JSON.parse(e.responseBody)).toMatchObject({
        error: { type: expect.any(String), message: expect.any(String) },
      });
    }
  });

  it('the check itself catches an invented field and a value of the wrong type', () => {
    const drifted = {
      object: 'subscription',
      id: 'sub_1',
      status: 3,
      renews_at: 123,
      items: { object: 'list', data: [] },
    };
    expect(stripeShapeProblems(drifted).sort()).toEqual([
      "(root) (subscription) has renews_at, which Stripe's subscription does not",
      "(root).status (subscription) is number where Stripe's is string",
    ]);
  });

  it('every event the stand-in sends has the shape of Stripe’s event and of the object it carries', () => {
    const events = [...sim.state.events.values()];
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'customer.subscription.created',
        'customer.subscription.updated',
        'customer.subscription.deleted',
        'invoice.paid',
        'invoice.payment_action_required',
        'setup_intent.succeeded',
      ]),
    );
    expect(events.flatMap((e) => stripeShapeProblems(e as never, e.type))).toEqual([]);
  });
});
