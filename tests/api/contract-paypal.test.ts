/**
 * Contract tests: every request our PayPal adapter sends, and every answer and webhook
 * event the PayPal stand-in gives, validated against PayPal's published OpenAPI documents
 * (specs/paypal, copied from paypal/paypal-rest-api-specifications). A stand-in that drifts from
 * PayPal's format, or an adapter that sends what PayPal would refuse, fails here.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaypalSim, startPaypalSim } from '../../sim/paypal';
import { createPaypalGateway, type PaypalGateway } from '../../src/server/providers/payments/paypal';
import { OpenApiContract } from '../helpers/openapi-contract';
import { type RecordingProxy, startRecordingProxy } from '../helpers/recording-proxy';
import { TEST_DB } from '../helpers/test-app';

const spec = (name: string) => JSON.parse(readFileSync(path.resolve('specs/paypal', `${name}.json`), 'utf8'));
/** Token requests are form-encoded OAuth 2.0 (RFC 6749), which PayPal publishes no OpenAPI document for. */
const OAUTH_TOKEN = '/v1/oauth2/token';

describe(`PayPal contract (${TEST_DB})`, () => {
  const contract = new OpenApiContract({
    billing: spec('billing_subscriptions_v1'),
    webhooks: spec('notifications_webhooks_v1'),
    catalogs: spec('catalogs_products_v1'),
  });
  let sim: PaypalSim;
  let proxy: RecordingProxy;
  let gateway: PaypalGateway;
  let receiver: Server;
  const events: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        events.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    sim = await startPaypalSim({ port: 0, clientId: 'cid', clientSecret: 'secret', webhookUrl });
    proxy = await startRecordingProxy(sim.url);
    gateway = createPaypalGateway({
      clientId: 'cid',
      clientSecret: 'secret',
      apiUrl: proxy.url,
      webhookId: sim.webhookId,
      brandName: 'Call Analytics',
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('every request the adapter sends and every answer the stand-in gives is as PayPal publishes it', async () => {
    const planId = await gateway.ensurePlan({
      planId: 'plan-contract',
      name: 'Contract',
      monthlyPriceCents: 4900,
    });
    // A second call finds the plan again (GET /v1/billing/plans/{id}).
    await gateway.ensurePlan({
      planId: 'plan-contract',
      name: 'Contract',
      monthlyPriceCents: 4900,
      existingPlanId: planId,
    });
    const created = await gateway.createSubscription({
      paypalPlanId: planId,
      clientId: 'client-contract',
      returnUrl: 'http://localhost:5000/api/client/paypal/return',
      cancelUrl: 'http://localhost:5000/api/client/paypal/cancel',
      requestId: 'contract-1',
    });
    await gateway.getSubscription(created.id);
    sim.approve(created.id);
    await sim.flush();
    await gateway.getSubscription(created.id);
    sim.failPayment(created.id);
    await sim.flush();
    await gateway.getSubscription(created.id);
    await gateway.cancelSubscription(created.id, 'Contract test');
    await sim.flush();
    await expect(gateway.getSubscription('I-DOESNOTEXIST')).rejects.toThrow();

    const checked = proxy.exchanges.filter((e) => e.path !== OAUTH_TOKEN);
    const operations = new Set(
      checked.map((e) => `${e.method} ${contract.operationFor(e.method, e.path)?.template}`),
    );
    expect(operations).toEqual(
      new Set([
        'POST /v1/catalogs/products',
        'POST /v1/billing/plans',
        'GET /v1/billing/plans/{id}',
        'POST /v1/billing/subscriptions',
        'GET /v1/billing/subscriptions/{id}',
        'POST /v1/billing/subscriptions/{id}/cancel',
      ]),
    );
    expect(checked.flatMap((e) => contract.check(e))).toEqual([]);
  });

  it('webhook events and the verification round trip match the notifications specification', async () => {
    expect(events.length).toBeGreaterThan(0);
    for (const raw of events) {
      const event = JSON.parse(raw);
      expect(contract.validateAt('webhooks', '/components/schemas/event', event)).toEqual([]);
      if (String(event.event_type).startsWith('BILLING.SUBSCRIPTION.')) {
        expect(contract.validateAt('billing', '/components/schemas/subscription', event.resource)).toEqual(
          [],
        );
      }
    }
    proxy.exchanges.length = 0;
    // What our server sends PayPal for each delivery: the raw event spliced into the request.
    const headers = {
      'paypal-transmission-id': 'b2c7e1a0-8f3d-11ef-9a1b-0b6c2f1d3e4f',
      'paypal-transmission-time': new Date().toISOString(),
    };
    await gateway.verifyWebhook(
      {
        ...headers,
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${sim.url}/certs/x.pem`,
        'paypal-transmission-sig': 'c2ln',
      },
      events[0],
    );
    const verify = proxy.exchanges.filter((e) => e.path === '/v1/notifications/verify-webhook-signature');
    expect(verify).toHaveLength(1);
    expect(verify.flatMap((e) => contract.check(e))).toEqual([]);
  });
});
