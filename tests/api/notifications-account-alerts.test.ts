/**
 * Account alerts: minutes at 80 % and 100 % of the plan, once per month each, whatever
 * the switches; and, to the agency, clients whose calls stopped arriving, once a day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { plainEmailBrand, renderQueuedEmail } from '../../src/server/notifications/email-layout';
import { storeCalls } from '../helpers/calls';
import { createClient, createSubscription } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
let clock = Date.UTC(2026, 5, 20, 12, 0);

describe(`account alerts (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { ADMIN_EMAIL: 'ops@agency.test' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const emailsOf = (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('channel', '=', 'email')
      // Digests (a Monday here) are reports.test.ts's business.
      .where('topic', 'not like', 'digest.%')
      .orderBy('created_at')
      .execute();
  const check = () => createNotifications(t.deps, () => {}).checkAlerts();

  it('tells a client at 80 % and at 100 % of its plan’s minutes, once each per month, even with e-mail off', async () => {
    const client = await createClient(t.deps);
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      {
        emailNotifications: false,
        smsNotifications: false,
        webhookNotifications: false,
        monthlyReports: false,
      },
      clock,
    );
    // Starter: 500 minutes.
    await createSubscription(t.deps, client.id, { current_period_end: clock + 10 * 24 * HOUR });
    // 390 minutes: under 80 %.
    await storeCalls(t.deps, client, [{ createdAt: clock - HOUR, durationSeconds: 390 * 60 }]);
    await check();
    expect(await emailsOf(client.id)).toHaveLength(0);
    // 410 minutes: 82 %.
    await storeCalls(t.deps, client, [{ createdAt: clock - HOUR + 1, durationSeconds: 20 * 60 }]);
    await check();
    await check();
    let mails = await emailsOf(client.id);
    expect(mails.map((m) => m.topic)).toEqual(['usage.80']);
    // Queued as content; the e-mail channel renders it with the brand when it sends it.
    expect(
      renderQueuedEmail(JSON.parse(mails[0].payload_json), plainEmailBrand('Call Analytics')),
    ).toMatchObject({
      to: client.email,
      subject: "You have used 80% of your Starter plan's minutes",
      text: expect.stringContaining('410 of 500 minutes used this month.'),
    });
    // Over 100 %: the second alert, once.
    await storeCalls(t.deps, client, [{ createdAt: clock - HOUR + 2, durationSeconds: 100 * 60 }]);
    await check();
    await check();
    mails = await emailsOf(client.id);
    expect(mails.map((m) => m.topic)).toEqual(['usage.80', 'usage.100']);
    // Next month starts over.
    clock = Date.UTC(2026, 6, 2, 12, 0);
    await storeCalls(t.deps, client, [{ createdAt: clock - HOUR, durationSeconds: 450 * 60 }]);
    await check();
    expect((await emailsOf(client.id)).map((m) => m.topic)).toEqual(['usage.80', 'usage.100', 'usage.80']);
  });

  it('tells the agency once a day about a client whose calls stopped arriving', async () => {
    clock = Date.UTC(2026, 7, 10, 12, 0);
    const busy = await createClient(t.deps);
    const silent = await createClient(t.deps, { company_name: 'Quiet Co' });
    await storeCalls(t.deps, busy, [{ createdAt: clock - 3 * 24 * HOUR }, { createdAt: clock - HOUR }]);
    await storeCalls(t.deps, silent, [{ createdAt: clock - 3 * 24 * HOUR }]);
    await check();
    await check();
    expect(await emailsOf(busy.id)).toHaveLength(0);
    const [alert] = await emailsOf(silent.id);
    expect(alert).toMatchObject({ topic: 'admin.calls-stopped' });
    expect(JSON.parse(alert.payload_json)).toMatchObject({
      to: 'ops@agency.test',
      subject: 'No calls from Quiet Co for a day',
    });
    clock += 24 * HOUR;
    await check();
    expect(await emailsOf(silent.id)).toHaveLength(2);
  });

  it('tells a client once that its cancelled subscription ends within three days', async () => {
    clock = Date.UTC(2026, 8, 10, 12, 0);
    const client = await createClient(t.deps, { timezone: 'America/Los_Angeles' });
    await createSubscription(t.deps, client.id, {
      // Sept 14, 02:00 UTC: Sept 13 in Los Angeles.
      current_period_end: Date.UTC(2026, 8, 14, 2, 0),
      cancel_at_period_end: 1,
    });
    const ending = async () => (await emailsOf(client.id)).filter((m) => m.topic === 'subscription.ending');
    await check();
    expect(await ending()).toHaveLength(0); // more than three days ahead
    clock = Date.UTC(2026, 8, 11, 12, 0);
    await check();
    await check();
    const mails = await ending();
    expect(mails).toHaveLength(1);
    expect(JSON.parse(mails[0].payload_json)).toMatchObject({
      to: client.email,
      subject: 'Your Starter subscription ends on 9/13/2026',
    });
  });
});
