/**
 * The Stripe adapter against the Stripe stand-in (sim/stripe) through the real `stripe` SDK:
 * the card outcomes of Stripe's test cards, idempotency, cancellation, and webhook signatures.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim, stripeSignatureHeader } from '../../../../sim/stripe';
import { PaymentError } from './errors';
import { createStripeGateway, type StripeGateway } from './stripe';

const WEBHOOK_SECRET = 'whsec_test_0123456789';
const SECRET_KEY = 'sk_test_adapter';

interface Received {
  raw: string;
  signature: string;
  event: {
    id: string;
    type: string;
    data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  };
}

let sim: StripeSim;
let receiver: Server;
let received: Received[] = [];
let gateway: StripeGateway;
let priceId: string;

async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ raw, signature: String(req.headers['stripe-signature']), event: JSON.parse(raw) });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
}

async function newCustomer(clientId = 'client-1') {
  return gateway.ensureCustomer({
    existingId: null,
    email: `${clientId}@example.com`,
    name: 'Ada',
    clientId,
  });
}

async function subscribe(pm: string, key: string, clientId = 'client-1') {
  const customerId = await newCustomer(clientId);
  const card = await gateway.attachPaymentMethod(customerId, pm);
  const sub = await gateway.createSubscription({
    customerId,
    priceId,
    paymentMethodId: card.paymentMethodId,
    clientId,
    planId: 'plan-pro',
    idempotencyKey: key,
  });
  return { customerId, card, sub };
}

/** What Stripe.js does after the customer passes (or fails) the 3-D Secure challenge. */
async function confirmLikeStripeJs(clientSecret: string) {
  const id = clientSecret.split('_secret_')[0];
  const res = await fetch(`${sim.url}/v1/payment_intents/${id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: clientSecret, key: 'pk_test_browser' }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const eventsOf = (type: string) => received.filter((r) => r.event.type === type);

beforeAll(async () => {
  const webhookUrl = await startReceiver();
  sim = await startStripeSim({ port: 0, webhookUrl, webhookSecret: WEBHOOK_SECRET, secretKey: SECRET_KEY });
  gateway = createStripeGateway({ secretKey: SECRET_KEY, apiUrl: sim.url, webhookSecret: WEBHOOK_SECRET });
  priceId = await gateway.ensurePrice({ planId: 'plan-pro', name: 'Pro', monthlyPriceCents: 4900 });
});

afterAll(async () => {
  await sim?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(async () => {
  await sim.flush();
  received = [];
  sim.setAuthenticationResult('succeed');
});

describe('card that succeeds (pm_card_visa)', () => {
  it('activates the subscription with the period end on the item and pays the invoice', async () => {
    const before = Date.now();
    const { card, sub, customerId } = await subscribe('pm_card_visa', 'visa-1');
    expect(card).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12 });
    expect(card.paymentMethodId).toMatch(/^pm_/);
    expect(card.paymentMethodId).not.toBe('pm_card_visa');
    expect(card.exp).toMatch(/^12\/\d{4}$/);

    expect(sub.status).toBe('active');
    expect(sub.clientSecret).toBeNull();
    expect(sub.customerId).toBe(customerId);
    expect(sub.priceId).toBe(priceId);
    expect(sub.metadata).toEqual({ clientId: 'client-1', planId: 'plan-pro' });
    const days = ((sub.currentPeriodEnd ?? 0) - before) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    await sim.flush();
    expect(eventsOf('customer.subscription.created')[0].event.data.object).toMatchObject({
      id: sub.id,
      status: 'active',
    });
    const paid = eventsOf('invoice.paid')[0].event.data.object;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 4900 });
    expect((paid.parent as { subscription_details: unknown }).subscription_details).toEqual({
      metadata: { clientId: 'client-1', planId: 'plan-pro' },
      subscription: sub.id,
    });
    // Only the events the product's endpoint subscribes to are delivered.
    expect(received.map((r) => r.event.type).sort()).toEqual([
      'customer.subscription.created',
      'invoice.paid',
    ]);
  });
});

describe('card that needs 3-D Secure (pm_card_authenticationRequired)', () => {
  it('leaves the subscription incomplete with a client secret until Stripe.js confirms', async () => {
    const { sub } = await subscribe('pm_card_authenticationRequired', '3ds-1');
    expect(sub.status).toBe('incomplete');
    expect(sub.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    await sim.flush();
    expect(eventsOf('invoice.payment_action_required')).toHaveLength(1);
    expect(eventsOf('invoice.paid')).toHaveLength(0);

    const confirmed = await confirmLikeStripeJs(sub.clientSecret as string);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');

    // As on Stripe, the subscription turns active a moment after the PaymentIntent succeeds.
    const payment = await gateway.getSubscriptionPayment(sub.id);
    expect(payment).toMatchObject({ info: { status: 'incomplete' }, paymentStatus: 'succeeded' });
    await expect
      .poll(async () => (await gateway.getSubscription(sub.id)).status, { timeout: 5_000 })
      .toBe('active');
    await sim.flush();
    expect(eventsOf('invoice.paid')).toHaveLength(1);
    const updated = eventsOf('customer.subscription.updated')[0].event;
    expect(updated.data.object.status).toBe('active');
    expect(updated.data.previous_attributes).toMatchObject({ status: 'incomplete' });
  });

  it('keeps the subscription incomplete when the customer fails authentication', async () => {
    const { sub } = await subscribe('pm_card_authenticationRequired', '3ds-fail');
    sim.setAuthenticationResult('fail');
    const confirmed = await confirmLikeStripeJs(sub.clientSecret as string);
    expect(confirmed.body.status).toBe('requires_payment_method');
    expect(confirmed.body.last_payment_error).toMatchObject({
      code: 'payment_intent_authentication_failure',
    });
    expect((await gateway.getSubscription(sub.id)).status).toBe('incomplete');
    await sim.flush();
    expect(eventsOf('invoice.payment_failed')).toHaveLength(1);
  });

  it('cannot be completed server-side: a secret-key confirm leaves it requiring action', async () => {
    const { sub } = await subscribe('pm_card_authenticationRequired', '3ds-server');
    const id = (sub.clientSecret as string).split('_secret_')[0];
    const res = await fetch(`${sim.url}/v1/payment_intents/${id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(((await res.json()) as { status: string }).status).toBe('requires_action');
  });

  it('refuses a browser confirm with the wrong client secret', async () => {
    const { sub } = await subscribe('pm_card_authenticationRequired', '3ds-wrong-secret');
    const id = (sub.clientSecret as string).split('_secret_')[0];
    const confirmed = await confirmLikeStripeJs(`${id}_secret_wrong`);
    expect(confirmed.status).toBe(400);
    expect((await gateway.getSubscription(sub.id)).status).toBe('incomplete');
  });
});

describe('declined cards', () => {
  it('pm_card_chargeDeclined is refused when attached, with Stripe\u2019s message', async () => {
    const customerId = await newCustomer('client-declined');
    const err = await gateway.attachPaymentMethod(customerId, 'pm_card_chargeDeclined').catch((e) => e);
    expect(err).toBeInstanceOf(PaymentError);
    expect(err).toMatchObject({
      kind: 'card',
      message: 'Your card was declined.',
      detail: { code: 'card_declined', declineCode: 'generic_decline', status: 402 },
    });
    const attached = [...sim.state.paymentMethods.values()].filter((pm) => pm.customer === customerId);
    expect(attached).toHaveLength(0);
  });

  it('a card that fails when charged throws the decline and leaves no live subscription', async () => {
    const countBefore = sim.state.subscriptions.size;
    const err = await subscribe('pm_card_chargeCustomerFail', 'charge-fail').catch((e) => e);
    expect(err).toBeInstanceOf(PaymentError);
    expect(err).toMatchObject({ kind: 'card', message: 'Your card was declined.' });
    const created = [...sim.state.subscriptions.values()].slice(countBefore);
    expect(created).toHaveLength(1);
    expect(created[0].status).toBe('canceled');
    await sim.flush();
    expect(eventsOf('invoice.payment_failed')).toHaveLength(1);
    expect(eventsOf('customer.subscription.deleted')).toHaveLength(1);
  });
});

describe('idempotency', () => {
  it('the same key twice gives one subscription', async () => {
    const customerId = await newCustomer('client-idem');
    const card = await gateway.attachPaymentMethod(customerId, 'pm_card_visa');
    const input = {
      customerId,
      priceId,
      paymentMethodId: card.paymentMethodId,
      clientId: 'client-idem',
      planId: 'plan-pro',
      idempotencyKey: 'idem-key-1',
    };
    const first = await gateway.createSubscription(input);
    const second = await gateway.createSubscription(input);
    expect(second.id).toBe(first.id);
    const mine = [...sim.state.subscriptions.values()].filter((s) => s.customer === customerId);
    expect(mine).toHaveLength(1);
    await sim.flush();
    expect(eventsOf('customer.subscription.created')).toHaveLength(1);
  });

  it('the same key with other parameters is refused', async () => {
    await subscribe('pm_card_visa', 'idem-key-2', 'client-a');
    const err = await subscribe('pm_card_visa', 'idem-key-2', 'client-b').catch((e) => e);
    expect(err).toMatchObject({ kind: 'invalid' });
  });
});

describe('cancellation', () => {
  it('sets and clears cancel_at_period_end, then ends at the period end', async () => {
    const { sub } = await subscribe('pm_card_visa', 'cancel-1');
    const cancelled = await gateway.setCancelAtPeriodEnd(sub.id, true);
    expect(cancelled).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: sub.currentPeriodEnd,
    });
    await sim.flush();
    const updated = eventsOf('customer.subscription.updated').at(-1)?.event;
    expect(updated?.data.object.cancel_at_period_end).toBe(true);
    expect(updated?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });

    expect((await gateway.setCancelAtPeriodEnd(sub.id, false)).cancelAtPeriodEnd).toBe(false);
    await gateway.setCancelAtPeriodEnd(sub.id, true);

    await sim.advanceSubscription(sub.id);
    expect((await gateway.getSubscription(sub.id)).status).toBe('canceled');
    await sim.flush();
    expect(eventsOf('customer.subscription.deleted')).toHaveLength(1);
  });

  it('renews at the period end when not cancelled', async () => {
    const { sub } = await subscribe('pm_card_visa', 'renew-1');
    await sim.advanceSubscription(sub.id);
    const renewed = await gateway.getSubscription(sub.id);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd).toBeGreaterThan(sub.currentPeriodEnd ?? 0);
    await sim.flush();
    expect(eventsOf('invoice.paid')).toHaveLength(2);
  });

  it('cancelNow is harmless twice', async () => {
    const { sub } = await subscribe('pm_card_visa', 'cancel-now');
    expect((await gateway.cancelNow(sub.id)).status).toBe('canceled');
    expect((await gateway.cancelNow(sub.id)).status).toBe('canceled');
  });
});

describe('webhook signatures (constructEvent)', () => {
  it('accepts what the stand-in delivered, exactly as received', async () => {
    await subscribe('pm_card_visa', 'sig-1');
    await sim.flush();
    expect(received.length).toBeGreaterThan(0);
    for (const r of received) {
      expect(r.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(gateway.constructEvent(Buffer.from(r.raw), r.signature).id).toBe(r.event.id);
    }
    expect(received[0].event).toMatchObject({
      object: 'event',
      api_version: expect.stringMatching(/basil$/),
    });
    expect(received[0].event.id).toMatch(/^evt_/);
  });

  it('rejects an altered body, a foreign secret, a stale timestamp and a missing header', async () => {
    await subscribe('pm_card_visa', 'sig-2');
    await sim.flush();
    const { raw, signature } = received[0];
    const expectSignatureError = (fn: () => unknown) => {
      const err = (() => {
        try {
          fn();
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(PaymentError);
      expect(err).toMatchObject({ kind: 'signature' });
    };
    expectSignatureError(() =>
      gateway.constructEvent(raw.replace('"livemode": false', '"livemode": true'), signature),
    );
    expectSignatureError(() => gateway.constructEvent(JSON.stringify(JSON.parse(raw)), signature));
    expectSignatureError(() => gateway.constructEvent(raw, stripeSignatureHeader(raw, 'whsec_someone_else')));
    expectSignatureError(() =>
      gateway.constructEvent(
        raw,
        stripeSignatureHeader(raw, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600),
      ),
    );
    expectSignatureError(() => gateway.constructEvent(raw, undefined));
  });

  it('a replayed event verifies again with the same id (deduplication is the receiver\u2019s job)', async () => {
    await subscribe('pm_card_visa', 'sig-3');
    await sim.flush();
    const original = received[0];
    const delivery = await sim.resend(original.event.id);
    expect(delivery?.ok).toBe(true);
    const replay = received.at(-1) as Received;
    expect(replay.raw).toBe(original.raw);
    expect(gateway.constructEvent(replay.raw, replay.signature).id).toBe(original.event.id);
  });
});

describe('customers, prices and errors', () => {
  it('ensureCustomer keeps a live id and replaces a stale one', async () => {
    const id = await newCustomer('client-keep');
    expect(
      await gateway.ensureCustomer({
        existingId: id,
        email: 'x@example.com',
        name: 'X',
        clientId: 'client-keep',
      }),
    ).toBe(id);
    const replaced = await gateway.ensureCustomer({
      existingId: 'cus_gone',
      email: 'x@example.com',
      name: 'X',
      clientId: 'client-keep',
    });
    expect(replaced).toMatch(/^cus_/);
    expect(replaced).not.toBe('cus_gone');
  });

  it('ensurePrice reuses a matching price and makes a new one when the amount changes', async () => {
    expect(
      await gateway.ensurePrice({
        planId: 'plan-pro',
        name: 'Pro',
        monthlyPriceCents: 4900,
        existingPriceId: priceId,
      }),
    ).toBe(priceId);
    // Found again by lookup key even when our database lost the id.
    expect(await gateway.ensurePrice({ planId: 'plan-pro', name: 'Pro', monthlyPriceCents: 4900 })).toBe(
      priceId,
    );
    const dearer = await gateway.ensurePrice({
      planId: 'plan-pro',
      name: 'Pro',
      monthlyPriceCents: 5900,
      existingPriceId: priceId,
    });
    expect(dearer).not.toBe(priceId);
    expect(sim.state.prices.get(dearer)).toMatchObject({
      unit_amount: 5900,
      recurring: { interval: 'month' },
    });
  });

  it('changePrice moves the subscription to another price; replacePaymentMethod swaps the card', async () => {
    const { sub, customerId } = await subscribe('pm_card_visa', 'change-1');
    const other = await gateway.ensurePrice({ planId: 'plan-max', name: 'Max', monthlyPriceCents: 9900 });
    expect((await gateway.changePrice(sub.id, other, 'change-1-a')).priceId).toBe(other);
    const card = await gateway.replacePaymentMethod({
      customerId,
      paymentMethodId: 'pm_card_mastercard',
      subscriptionId: sub.id,
    });
    expect(card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect(sim.state.subscriptions.get(sub.id)?.default_payment_method).toBe(card.paymentMethodId);
    expect(sim.state.customers.get(customerId)?.invoice_settings.default_payment_method).toBe(
      card.paymentMethodId,
    );
  });

  it('maps a wrong key, an unknown id and an unreachable host', async () => {
    const wrongKey = createStripeGateway({
      secretKey: 'sk_test_wrong',
      apiUrl: sim.url,
      webhookSecret: null,
    });
    await expect(wrongKey.getSubscription('sub_x')).rejects.toMatchObject({ kind: 'auth' });
    await expect(gateway.getSubscription('sub_missing')).rejects.toMatchObject({ kind: 'not_found' });
    const nowhere = createStripeGateway({
      secretKey: SECRET_KEY,
      apiUrl: 'http://127.0.0.1:9',
      webhookSecret: null,
    });
    await expect(nowhere.getSubscription('sub_x')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
