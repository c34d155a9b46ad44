/**
 * Texts through the outbox and Twilio's Messages API, against the Twilio stand-in:
 * only for calls that need attention, only with the switch on and a phone number, held through
 * the client's quiet hours, retried on Twilio's 5xx and 429, dropped on its 4xx.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTwilioSim, type TwilioSim } from '../../sim/twilio';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { markVerified } from '../../src/server/notifications/sms-numbers';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

// 15:00 in New York (EDT): daytime.
let clock = Date.UTC(2026, 5, 10, 19, 0);
const PREFS = {
  emailNotifications: false,
  smsNotifications: true,
  webhookNotifications: false,
  monthlyReports: false,
};

describe(`text notifications (${TEST_DB})`, () => {
  let t: TestApp;
  let twilio: TwilioSim;
  beforeAll(async () => {
    twilio = await startTwilioSim({ accountSid: 'ACtest000', authToken: 'token-test' });
    t = await createTestApp({
      now: () => clock,
      env: {
        TWILIO_ACCOUNT_SID: 'ACtest000',
        TWILIO_AUTH_TOKEN: 'token-test',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: twilio.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });
  beforeEach(() => twilio.clear());

  async function textingClient(phone: string | null = '+12125550143') {
    const client = await createClient(t.deps, { timezone: 'America/New_York', phone_number: phone });
    await saveNotificationPrefs(t.deps.db, client.id, PREFS, clock);
    // Texts go only to a verified number (sms-verification.test.ts): this one was.
    if (phone) await markVerified(t.deps.db, client.id, phone, null, clock);
    return client;
  }
  const failedCall = (id: string) => ({
    providerCallId: id,
    status: 'failed' as const,
    durationSeconds: 0,
    createdAt: clock - 60_000,
    insights: NO_INSIGHTS,
  });
  const round = async () => {
    const n = createNotifications(t.deps, () => {});
    await n.worker.runOnce();
    n.close();
  };
  const smsOf = async (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('channel', '=', 'sms')
      .execute();

  it('texts the client about a call that needs attention, in Twilio’s format, once', async () => {
    const client = await textingClient();
    await storeCalls(t.deps, client, [failedCall('sms-1'), { createdAt: clock - 1000, durationSeconds: 90 }]);
    await storeCalls(t.deps, client, [failedCall('sms-1')]);
    await round();
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0]).toMatchObject({ to: '+12125550143', from: '+15005550006' });
    expect(twilio.messages[0].body).toMatch(
      /^Call Analytics: call from \+15550001111 needs attention \(The call failed\)\. http:\/\/localhost:5000\/dashboard\?call=/,
    );
    expect((await smsOf(client.id))[0]).toMatchObject({ status: 'sent', last_status_code: 201 });
  });

  it('holds a text during quiet hours until 08:00 in the client’s time zone', async () => {
    const saved = clock;
    clock = Date.UTC(2026, 5, 11, 3, 30); // 23:30 in New York
    const client = await textingClient();
    await storeCalls(t.deps, client, [failedCall('sms-night')]);
    const [queued] = await smsOf(client.id);
    expect(new Date(Number(queued.next_attempt_at)).toISOString()).toBe('2026-06-11T12:00:00.000Z');
    await round();
    expect(twilio.messages).toHaveLength(0);
    clock = Date.UTC(2026, 5, 11, 12, 0);
    await round();
    expect(twilio.messages).toHaveLength(1);
    clock = saved;
  });

  it('retries when Twilio is busy, drops what Twilio refuses, and never texts without a number', async () => {
    const client = await textingClient();
    twilio.failNext(1, 429, 20429);
    await storeCalls(t.deps, client, [failedCall('sms-busy')]);
    await round();
    expect((await smsOf(client.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 429,
    });
    clock += 30_000;
    await round();
    expect(twilio.messages).toHaveLength(1);

    // A number Twilio refuses (not E.164): error 21211, not retried.
    const bad = await textingClient();
    await t.deps.db.updateTable('clients').set({ phone_number: '12345' }).where('id', '=', bad.id).execute();
    await markVerified(t.deps.db, bad.id, '12345', null, clock);
    await storeCalls(t.deps, bad, [failedCall('sms-bad-number')]);
    await round();
    expect((await smsOf(bad.id))[0]).toMatchObject({
      status: 'cancelled',
      last_error: expect.stringContaining('21211'),
    });

    const noPhone = await textingClient(null);
    await storeCalls(t.deps, noPhone, [failedCall('sms-no-phone')]);
    expect(await smsOf(noPhone.id)).toHaveLength(0);
    // The Notifications tab learns why: texting works here, but this client has no number.
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/client/notifications/channels',
      headers: { cookie: await loginClient(t.app, noPhone.email) },
    });
    expect(res.json()).toEqual({ email: false, sms: true, smsTo: null });
  });

  it('drops a text that was due over a day ago and never sent (texting was not set up then)', async () => {
    const client = await textingClient();
    await storeCalls(t.deps, client, [failedCall('sms-stale')]);
    clock += 25 * 60 * 60 * 1000;
    await round();
    expect(twilio.messages).toHaveLength(0);
    expect((await smsOf(client.id))[0]).toMatchObject({
      status: 'cancelled',
      last_error: expect.stringMatching(/^expired/),
    });
  });
});
