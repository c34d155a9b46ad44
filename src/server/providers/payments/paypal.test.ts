/**
 * The PayPal adapter against the PayPal stand-in (sim/paypal): plans, the approval round trip,
 * cancellation, token handling and webhook verification.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaypalSim, startPaypalSim } from '../../../../sim/paypal';
import { PaymentError } from './errors';
import { createPaypalGateway, formatCents, type PaypalGateway } from './paypal';

const CLIENT_ID = 'sim-client';
const CLIENT_SECRET = 'sim-secret';
const RETURN_URL = 'http://localhost:5000/api/client/paypal/return';
const CANCEL_URL = 'http://localhost:5000/api/client/paypal/cancel';

interface Received {
  raw: string;
  headers: Record<string, string | string[] | undefined>;
  event: { id: string; event_type: string; resource: Record<string, unknown> };
}

let sim: PaypalSim;
let receiver: Server;
let received: Received[] = [];
let gateway: PaypalGateway;
let planId: string;

async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ raw, headers: req.headers, event: JSON.parse(raw) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
}

let requestCounter = 0;
async function createSubscription(clientId = 'client-1') {
  requestCounter += 1;
  return gateway.createSubscription({
    paypalPlanId: planId,
    clientId,
    returnUrl: RETURN_URL,
    cancelUrl: CANCEL_URL,
    requestId: `req-${requestCounter}`,
  });
}

beforeAll(async () => {
  const webhookUrl = await startReceiver();
  sim = await startPaypalSim({ port: 0, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webhookUrl });
  gateway = createPaypalGateway({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    apiUrl: sim.url,
    webhookId: sim.webhookId,
    brandName: 'Call Analytics',
  });
  planId = await gateway.ensurePlan({ planId: 'plan-pro', name: 'Pro', monthlyPriceCents: 4900 });
});

afterAll(async () => {
  await sim?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(async () => {
  await sim.flush();
  received = [];
});

describe('plans', () => {
  it('creates a monthly plan once and keeps it while the price matches', async () => {
    expect(planId).toMatch(/^P-/);
    const plan = sim.state.plans.get(planId);
    expect(plan?.billing_cycles[0]).toMatchObject({
      frequency: { interval_unit: 'MONTH', interval_count: 1 },
      pricing_scheme: { fixed_price: { value: '49.00', currency_code: 'USD' } },
    });
    expect(
      await gateway.ensurePlan({
        planId: 'plan-pro',
        name: 'Pro',
        monthlyPriceCents: 4900,
        existingPlanId: planId,
      }),
    ).toBe(planId);
    const dearer = await gateway.ensurePlan({
      planId: 'plan-pro',
      name: 'Pro',
      monthlyPriceCents: 5900,
      existingPlanId: planId,
    });
    expect(dearer).not.toBe(planId);
    expect(
      await gateway.ensurePlan({
        planId: 'plan-pro',
        name: 'Pro',
        monthlyPriceCents: 4900,
        existingPlanId: 'P-GONE',
      }),
    ).toMatch(/^P-/);
  });

  it('formats cents without floating point', () => {
    expect(formatCents(4900)).toBe('49.00');
    expect(formatCents(1999)).toBe('19.99');
    expect(formatCents(5)).toBe('0.05');
  });
});

describe('subscription approval round trip', () => {
  it('creates APPROVAL_PENDING with an approve link, then ACTIVE after approval', async () => {
    const { id, approveUrl } = await createSubscription();
    expect(id).toMatch(/^I-[A-Z0-9]{12}$/);
    expect(approveUrl).toMatch(new RegExp(`^${sim.url}/checkoutnow\\?token=BA-`));
    expect(await gateway.getSubscription(id)).toMatchObject({
      status: 'APPROVAL_PENDING',
      customId: 'client-1',
      planId,
      nextBillingTime: null,
    });

    const { redirectUrl } = sim.approve(id);
    const back = new URL(redirectUrl);
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
    expect(back.searchParams.get('subscription_id')).toBe(id);
    expect(back.searchParams.get('ba_token')).toMatch(/^BA-/);
    expect(back.searchParams.get('token')).toBe(back.searchParams.get('ba_token'));

    const active = await gateway.getSubscription(id);
    expect(active.status).toBe('ACTIVE');
    const days = ((active.nextBillingTime ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
  });

  it('is idempotent by PayPal-Request-Id', async () => {
    const input = {
      paypalPlanId: planId,
      clientId: 'client-2',
      returnUrl: RETURN_URL,
      cancelUrl: CANCEL_URL,
    };
    const first = await gateway.createSubscription({ ...input, requestId: 'same-request' });
    const second = await gateway.createSubscription({ ...input, requestId: 'same-request' });
    expect(second).toEqual(first);
    expect([...sim.state.subscriptions.values()].filter((s) => s.custom_id === 'client-2')).toHaveLength(1);
  });

  it('serves an approval page whose buttons redirect like PayPal', async () => {
    const { id, approveUrl } = await createSubscription('client-page');
    const page = await fetch(approveUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('id="approve"');
    expect(html).toContain('id="cancel"');
    const token = new URL(approveUrl).searchParams.get('token') as string;

    const cancel = await fetch(`${sim.url}/checkoutnow/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
    expect(cancel.status).toBe(303);
    const cancelled = new URL(cancel.headers.get('location') as string);
    expect(`${cancelled.origin}${cancelled.pathname}`).toBe(CANCEL_URL);
    expect(cancelled.searchParams.get('token')).toBe(token);
    expect((await gateway.getSubscription(id)).status).toBe('APPROVAL_PENDING');

    const approve = await fetch(`${sim.url}/checkoutnow/approve`, {
      method: 'POST',
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
    expect(approve.status).toBe(303);
    expect(new URL(approve.headers.get('location') as string).searchParams.get('subscription_id')).toBe(id);
    expect((await gateway.getSubscription(id)).status).toBe('ACTIVE');
  });

  it('refuses an unknown plan and a missing subscription', async () => {
    await expect(
      gateway.createSubscription({
        paypalPlanId: 'P-NOPE',
        clientId: 'c',
        returnUrl: RETURN_URL,
        cancelUrl: CANCEL_URL,
        requestId: 'req-unknown-plan',
      }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(gateway.getSubscription('I-MISSING')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('cancellation', () => {
  it('cancels an active subscription; repeating it is harmless', async () => {
    const { id } = await createSubscription('client-cancel');
    sim.approve(id);
    expect(await gateway.cancelSubscription(id)).toBe('CANCELLED');
    expect((await gateway.getSubscription(id)).status).toBe('CANCELLED');
    expect(await gateway.cancelSubscription(id)).toBe('CANCELLED');
  });

  it('reports a never-approved subscription as it is', async () => {
    const { id } = await createSubscription('client-unapproved');
    expect(await gateway.cancelSubscription(id)).toBe('APPROVAL_PENDING');
  });
});

describe('webhooks', () => {
  it('delivers signed events that verify, and refuses altered or foreign ones', async () => {
    const { id } = await createSubscription('client-hook');
    sim.approve(id);
    await sim.flush();
    const activated = received.find((r) => r.event.event_type === 'BILLING.SUBSCRIPTION.ACTIVATED');
    expect(activated).toBeDefined();
    const hook = activated as Received;
    expect(hook.event.resource).toMatchObject({ id, status: 'ACTIVE', custom_id: 'client-hook' });
    expect(hook.headers['paypal-transmission-id']).toBeTruthy();
    expect(hook.headers['paypal-transmission-sig']).toBeTruthy();
    expect(hook.headers['paypal-transmission-time']).toBeTruthy();
    expect(hook.headers['paypal-auth-algo']).toBe('SHA256withRSA');

    expect(await gateway.verifyWebhook(hook.headers, hook.raw)).toBe(true);
    expect(await gateway.verifyWebhook(hook.headers, Buffer.from(hook.raw))).toBe(true);
    expect(await gateway.verifyWebhook(hook.headers, hook.raw.replace('client-hook', 'client-evil'))).toBe(
      false,
    );
    const other = received.find((r) => r.event.id !== hook.event.id) as Received;
    expect(await gateway.verifyWebhook(other.headers, hook.raw)).toBe(false);
    expect(await gateway.verifyWebhook({}, hook.raw)).toBe(false);
    expect(
      await gateway.verifyWebhook({ ...hook.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' }, hook.raw),
    ).toBe(false);
    expect(await gateway.verifyWebhook(hook.headers, 'not json')).toBe(false);

    const foreign = createPaypalGateway({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: sim.url,
      webhookId: 'SOMEONEELSE',
    });
    expect(await foreign.verifyWebhook(hook.headers, hook.raw)).toBe(false);
  });

  it('a resent event keeps its id and verifies again', async () => {
    const { id } = await createSubscription('client-resend');
    sim.approve(id);
    await sim.flush();
    const original = received.find(
      (r) => r.event.event_type === 'BILLING.SUBSCRIPTION.ACTIVATED',
    ) as Received;
    await sim.resend(original.event.id);
    const replay = received.at(-1) as Received;
    expect(replay.event.id).toBe(original.event.id);
    expect(replay.headers['paypal-transmission-id']).not.toBe(original.headers['paypal-transmission-id']);
    expect(await gateway.verifyWebhook(replay.headers, replay.raw)).toBe(true);
  });
});

describe('tokens and failures', () => {
  it('caches the access token and refreshes it after a 401', async () => {
    const fresh = createPaypalGateway({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: sim.url,
      webhookId: null,
    });
    sim.expireTokens();
    await fresh.getSubscription((await createSubscription()).id);
    await fresh.getSubscription((await createSubscription()).id);
    // The gateway under test holds one token, the shared one another.
    expect(sim.state.tokens.size).toBe(2);
    sim.expireTokens();
    const { id } = await createSubscription();
    expect((await fresh.getSubscription(id)).status).toBe('APPROVAL_PENDING');
  });

  it('maps bad credentials, an unreachable host and a timeout', async () => {
    const wrong = createPaypalGateway({
      clientId: CLIENT_ID,
      clientSecret: 'nope',
      apiUrl: sim.url,
      webhookId: null,
    });
    const err = await wrong.getSubscription('I-X').catch((e) => e);
    expect(err).toBeInstanceOf(PaymentError);
    expect(err).toMatchObject({ kind: 'auth', provider: 'paypal' });

    const nowhere = createPaypalGateway({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: 'http://127.0.0.1:9',
      webhookId: null,
    });
    await expect(nowhere.getSubscription('I-X')).rejects.toMatchObject({ kind: 'unavailable' });

    const silent = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = createPaypalGateway({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      webhookId: null,
      timeoutMs: 200,
    });
    const timedOut = await slow.getSubscription('I-X').catch((e) => e);
    expect(timedOut).toMatchObject({
      kind: 'unavailable',
      detail: { providerMessage: 'timed out after 200 ms' },
    });
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
