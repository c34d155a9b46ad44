/**
 * Webhook notifications: the client's endpoint and secret (shown once, rotatable), a
 * finished call POSTed signed as documented (docs/webhooks.md), retries with backoff on a
 * refusal, the delivery log, "Send again" with the same event id, "Send test event", private
 * addresses refused, and one client never reaching another's deliveries.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { saveWebhookEndpoint } from '../../src/server/notifications/client-webhooks';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

let clock = Date.UTC(2026, 5, 10, 19, 0);
const PREFS = {
  emailNotifications: false,
  smsNotifications: false,
  webhookNotifications: true,
  monthlyReports: false,
};

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Verifies X-Signature as docs/webhooks.md tells a receiver to. */
function verify(secret: string, header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return parts.v1 === expected;
}

describe(`webhook notifications (${TEST_DB})`, () => {
  let t: TestApp;
  let receiver: Server;
  let receiverUrl: string;
  let received: Received[] = [];
  let answer = 200;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/calls`;
    t = await createTestApp({ now: () => clock, env: { CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
  beforeEach(() => {
    received = [];
    answer = 200;
  });

  const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });
  const round = async () => {
    const n = createNotifications(t.deps, () => {});
    await n.worker.runOnce();
    n.close();
  };
  async function hookedClient() {
    const client = await createClient(t.deps);
    await saveNotificationPrefs(t.deps.db, client.id, PREFS, clock);
    const cookie = await loginClient(t.app, client.email);
    const saved = await send('PUT', '/api/client/integrations/webhook', cookie, { url: receiverUrl });
    expect(saved.statusCode).toBe(200);
    return { client, cookie, secret: saved.json().secret as string };
  }

  it('shows the secret once, POSTs each finished call signed and versioned, and logs it', async () => {
    const { client, cookie, secret } = await hookedClient();
    expect(secret).toMatch(/^whsec_/);
    const shown = (await send('GET', '/api/client/integrations/webhook', cookie)).json();
    expect(shown).toEqual({
      url: receiverUrl,
      secretHint: secret.slice(-4),
      createdAt: new Date(clock).toISOString(),
    });
    // Changing the URL keeps the secret (and does not show it again).
    const again = (
      await send('PUT', '/api/client/integrations/webhook', cookie, { url: receiverUrl })
    ).json();
    expect(again.secret).toBeNull();

    await storeCalls(t.deps, client, [
      { providerCallId: 'hook-1', status: 'completed', durationSeconds: 95, createdAt: clock - 60_000 },
      { providerCallId: 'hook-live', status: 'active', durationSeconds: 0, createdAt: clock - 1000 },
    ]);
    // A re-delivery of the same call makes no second event.
    await storeCalls(t.deps, client, [
      { providerCallId: 'hook-1', status: 'completed', durationSeconds: 95, createdAt: clock - 60_000 },
    ]);
    await round();
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit.headers['content-type']).toBe('application/json');
    expect(verify(secret, hit.headers['x-signature'] as string, hit.body)).toBe(true);
    expect(verify('whsec_wrong', hit.headers['x-signature'] as string, hit.body)).toBe(false);
    const event = JSON.parse(hit.body);
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'call.completed',
      apiVersion: '2026-11-01',
      createdAt: new Date(clock).toISOString(),
      link: expect.stringMatching(/\/dashboard\?call=/),
      call: { providerCallId: 'hook-1', status: 'completed', duration: 95 },
    });
    // The call exactly as the API's call detail answers it.
    const detail = await send('GET', `/api/client/calls/${event.call.id}`, cookie);
    expect(event.call).toEqual(detail.json());
    // Named as the e-mails, the log and the drawer name it: the start of its id.
    expect(event.call.reference).toBe(event.call.id.slice(0, 8));
    expect(hit.headers['webhook-id']).toBe(event.id);

    const log = (await send('GET', '/api/client/integrations/webhook/deliveries', cookie)).json();
    expect(log).toMatchObject({ page: 1, hasMore: false });
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        event: 'call.completed',
        status: 'sent',
        statusCode: 200,
        attempts: 1,
        callId: event.call.id,
      }),
    ]);
  });

  it('retries a refusal with backoff, and "Send again" repeats the same event', async () => {
    const { client, cookie, secret } = await hookedClient();
    answer = 503;
    await storeCalls(t.deps, client, [
      { providerCallId: 'hook-retry', status: 'failed', durationSeconds: 0, createdAt: clock - 1000 },
    ]);
    await round();
    expect(received).toHaveLength(1);
    let [delivery] = (await send('GET', '/api/client/integrations/webhook/deliveries', cookie)).json()
      .deliveries;
    expect(delivery).toMatchObject({
      status: 'pending',
      statusCode: 503,
      attempts: 1,
      lastError: 'the endpoint answered 503',
    });
    expect(Date.parse(delivery.nextAttemptAt) - clock).toBe(30_000);
    // Not due yet: nothing is sent.
    await round();
    expect(received).toHaveLength(1);
    answer = 200;
    clock += 31_000;
    await round();
    expect(received).toHaveLength(2);
    [delivery] = (await send('GET', '/api/client/integrations/webhook/deliveries', cookie)).json().deliveries;
    expect(delivery).toMatchObject({ status: 'sent', statusCode: 200, attempts: 2 });

    const resent = await send(
      'POST',
      `/api/client/integrations/webhook/deliveries/${delivery.id}/resend`,
      cookie,
    );
    expect(resent.statusCode).toBe(202);
    await round();
    expect(received).toHaveLength(3);
    const first = JSON.parse(received[1].body);
    const repeat = JSON.parse(received[2].body);
    expect(repeat.id).toBe(first.id);
    expect(verify(secret, received[2].headers['x-signature'] as string, received[2].body)).toBe(true);
  });

  it('sends a test event at once, and a rotated secret replaces the old one', async () => {
    const { cookie, secret } = await hookedClient();
    const test = await send('POST', '/api/client/integrations/webhook/test', cookie);
    expect(test.json()).toEqual({ delivered: true, statusCode: 200, error: null });
    expect(JSON.parse(received[0].body)).toMatchObject({ type: 'test', apiVersion: '2026-11-01' });
    expect(verify(secret, received[0].headers['x-signature'] as string, received[0].body)).toBe(true);

    const rotated = (await send('POST', '/api/client/integrations/webhook/rotate', cookie)).json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    answer = 500;
    clock += 1000;
    const failing = (await send('POST', '/api/client/integrations/webhook/test', cookie)).json();
    expect(failing).toEqual({ delivered: false, statusCode: 500, error: 'the endpoint answered 500' });
    expect(verify(rotated.secret, received[1].headers['x-signature'] as string, received[1].body)).toBe(true);
    expect(verify(secret, received[1].headers['x-signature'] as string, received[1].body)).toBe(false);
    const log = (await send('GET', '/api/client/integrations/webhook/deliveries', cookie)).json().deliveries;
    expect(log.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['test', 'cancelled'],
      ['test', 'sent'],
    ]);
  });

  it('without a URL nothing is queued; bad URLs are refused; a removed endpoint stops sending', async () => {
    const client = await createClient(t.deps);
    await saveNotificationPrefs(t.deps.db, client.id, PREFS, clock);
    const cookie = await loginClient(t.app, client.email);
    await storeCalls(t.deps, client, [
      { providerCallId: 'no-url', status: 'completed', durationSeconds: 30, createdAt: clock - 1000 },
    ]);
    await round();
    expect(received).toHaveLength(0);
    expect(
      (await send('GET', '/api/client/integrations/webhook/deliveries', cookie)).json().deliveries,
    ).toEqual([]);
    expect((await send('POST', '/api/client/integrations/webhook/test', cookie)).statusCode).toBe(404);
    expect((await send('POST', '/api/client/integrations/webhook/rotate', cookie)).statusCode).toBe(404);

    for (const url of [
      'ftp://example.com/x',
      'not a url',
      'https://user:pw@example.com/x',
      `https://example.com/${'x'.repeat(2100)}`,
    ]) {
      const bad = await send('PUT', '/api/client/integrations/webhook', cookie, { url });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.url).toBeTruthy();
    }
    const saved = await send('PUT', '/api/client/integrations/webhook', cookie, { url: receiverUrl });
    expect(saved.statusCode).toBe(200);
    expect((await send('DELETE', '/api/client/integrations/webhook', cookie)).json()).toEqual({
      success: true,
    });
    expect((await send('GET', '/api/client/integrations/webhook', cookie)).json()).toEqual({
      url: null,
      secretHint: null,
      createdAt: null,
    });
  });

  it('one client never reads or resends another client’s deliveries', async () => {
    const a = await hookedClient();
    const b = await hookedClient();
    await send('POST', '/api/client/integrations/webhook/test', a.cookie);
    const [delivery] = (await send('GET', '/api/client/integrations/webhook/deliveries', a.cookie)).json()
      .deliveries;
    expect(
      (await send('GET', '/api/client/integrations/webhook/deliveries', b.cookie)).json().deliveries,
    ).toEqual([]);
    const stolen = await send(
      'POST',
      `/api/client/integrations/webhook/deliveries/${delivery.id}/resend`,
      b.cookie,
    );
    expect(stolen.statusCode).toBe(404);
    expect(
      (await send('POST', '/api/client/integrations/webhook/deliveries/not-a-uuid/resend', b.cookie))
        .statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/integrations/webhook' })).statusCode).toBe(
      401,
    );
  });
});

describe(`webhook addresses in production (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({});
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses loopback, private and link-local targets', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://192.168.0.10/hook',
      // IPv4-compatible, NAT64 and 6to4 forms of loopback, IPv4-mapped private, multicast
      'http://[::127.0.0.1]/hook',
      'http://[64:ff9b::7f00:1]/hook',
      'http://[2002:7f00:1::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://224.0.0.1/hook',
      'http://[ff02::1]/hook',
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/client/integrations/webhook',
        headers: { cookie },
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe(
        'This address points inside a private network; use an address reachable from the internet',
      );
    }
  });

  it('"Send test" to a stored address inside the network answers the same refusal, never its status', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    for (const url of [
      'http://[::127.0.0.1]:9/hook',
      'http://[64:ff9b::7f00:1]:9/hook',
      'http://127.0.0.1:9/',
    ]) {
      // Saved before the refusal existed (or through a name that pointed outside then).
      await saveWebhookEndpoint(t.deps.db, t.deps.secrets, client.id, { url }, clock);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/client/integrations/webhook/test',
        headers: { cookie },
      });
      expect(res.json(), url).toEqual({
        delivered: false,
        statusCode: null,
        error: 'the address resolves inside a private network',
      });
    }
  });
});
