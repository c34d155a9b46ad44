/**
 * No alert storm on a new client's first day: syncing 60 days of history sends no
 * e-mail, text or digest; a call delivered by the provider as it ends still alerts, within the
 * client's alert window (an hour by default, its own choice in Settings › Notifications); a
 * digest covers only periods from the client's first sign-in (or the wizard's "notify now").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The app's clock: the real one unless a test sets it (the simulator's calls are timed by the real one). */
let clock: number | null = null;

describe(`no alert storm on a new client's first sync (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({
      now: () => clock ?? Date.now(),
      env: { BLAND_API_URL: sim.url },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 2_000, retryBaseMs: 10, maxRetries: 1 }),
    });
    const { username, password } = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, username, password);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const outboxOf = (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .select(['channel', 'topic', 'payload_json'])
      .where('client_id', '=', clientId)
      .execute();
  const alertsOf = async (clientId: string) =>
    (await outboxOf(clientId)).filter((m) => m.channel !== 'webhook').map((m) => m.topic);

  /** A client onboarded with a valid key at the Bland stand-in; nobody of it has signed in. */
  async function newClient() {
    const apiKey = `key_${crypto.randomUUID().slice(0, 8)}`;
    sim.addKey(apiKey);
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt(apiKey),
      api_key_status: 'valid',
      phone_number: '+15550009999',
    });
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      { emailNotifications: true, digest: 'daily' },
      Date.now(),
    );
    return { client, apiKey };
  }

  /** The provider's webhook for a call of the client's account that ended `agoMs` ago. */
  async function deliverFailedCall(client: { webhook_token: string }, apiKey: string, agoMs: number) {
    const [call] = sim.addCalls(apiKey, {
      count: 1,
      createdAt: Date.now() - agoMs,
      overrides: { status: 'failed' },
    });
    const res = await deliverWebhook(
      t.app,
      client.webhook_token,
      blandCallBody({ call_id: call.call_id, status: 'failed' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ received: true, kind: 'call' });
    expect(res.json().verified).not.toBe(false);
    return call;
  }

  it('a sync of 60 days of history alerts no one and sends no digest; a call just delivered does', async () => {
    const { client, apiKey } = await newClient();
    sim.addCalls(apiKey, { count: 30, spreadDays: 60, overrides: { status: 'failed' } });
    sim.addCalls(apiKey, { count: 30, spreadDays: 60, overrides: { status: 'completed' } });
    const sync = await t.app.inject({
      method: 'POST',
      url: `/api/admin/clients/${client.id}/sync`,
      headers: { cookie: admin },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toMatchObject({ success: true, created: 60 });
    // They are stored and need attention: the dashboard shows them, nobody is mailed about them.
    const needing = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .where('attention_reasons', 'is not', null)
      .where('attention_reasons', '!=', '[]')
      .execute();
    expect(needing.length).toBeGreaterThanOrEqual(30);
    const notifications = createNotifications(t.deps, () => {});
    await notifications.checkAlerts();
    notifications.close();
    expect(await alertsOf(client.id)).toEqual([]);

    // The provider's webhook of a call that ended two minutes ago: the client hears of it.
    await deliverFailedCall(client, apiKey, 2 * MINUTE);
    expect(await alertsOf(client.id)).toEqual(['call.attention']);
  }, 60_000);

  it('a delivery of a call older than the alert window alerts no one, unless the client widened it', async () => {
    const { client, apiKey } = await newClient();
    await deliverFailedCall(client, apiKey, 2 * 60 * MINUTE);
    expect(await alertsOf(client.id)).toEqual([]);

    const cookie = await loginClient(t.app, client.email);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/client/notifications',
      headers: { cookie },
      payload: { alertWindowMinutes: 0 },
    });
    expect(bad.statusCode).toBe(400);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/client/notifications',
      headers: { cookie },
      payload: { alertWindowMinutes: 240 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const read = await t.app.inject({ method: 'GET', url: '/api/client/notifications', headers: { cookie } });
    expect(read.json()).toMatchObject({ alertWindowMinutes: 240, digest: 'daily' });
    await deliverFailedCall(client, apiKey, 2 * 60 * MINUTE);
    expect(await alertsOf(client.id)).toEqual(['call.attention']);
  }, 30_000);

  it('sends no digest before the first sign-in, and digests the days from it on', async () => {
    const { client } = await newClient();
    const digests = async () => (await outboxOf(client.id)).filter((m) => m.topic.startsWith('digest.'));
    const check = async () => {
      const notifications = createNotifications(t.deps, () => {});
      await notifications.checkAlerts();
      notifications.close();
    };
    try {
      // Tuesday 09:00 UTC: yesterday's digest is due, but the client has never signed in.
      clock = Date.UTC(2026, 10, 3, 9, 0);
      await check();
      expect(await digests()).toHaveLength(0);
      // It signs in that day: Wednesday's digest (of Tuesday) is sent.
      await loginClient(t.app, client.email);
      clock += DAY;
      await check();
      expect((await digests()).map((d) => d.topic)).toEqual(['digest.daily']);
    } finally {
      clock = null;
    }
  });

  it('the wizard starts digests at once only when "notify now" is chosen', async () => {
    const draft = (email: string, notifyNow?: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/generate-webhook',
        headers: { cookie: admin },
        payload: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email,
          ...(notifyNow === undefined ? {} : { notifyNow }),
        },
      });
    const notifyFromOf = async (id: string) =>
      (
        await t.deps.db
          .selectFrom('clients')
          .select('notify_from')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).notify_from;
    const plain = await draft('later@example.com');
    expect(plain.statusCode, plain.body).toBe(201);
    expect(await notifyFromOf(plain.json().id)).toBeNull();
    const now = await draft('now@example.com', true);
    expect(now.statusCode, now.body).toBe(201);
    expect(Number(await notifyFromOf(now.json().id))).toBeGreaterThan(0);
    expect((await draft('bad@example.com', 'yes' as unknown as boolean)).statusCode).toBe(400);
  });
});
