/**
 * Per-user notification choices: GET/PUT /api/client/me/notifications, and who of a
 * client's people each message reaches. A client with an Owner (its account login), a Manager and
 * a Viewer: a call alert reaches each user per their choice, once per address, with callers'
 * numbers masked for the Viewer (no unmask_numbers) in the e-mail's subject, text and HTML and in
 * the text message; billing notices reach only billing holders; digests only reports holders; a
 * user deactivated before the send gets nothing; bad input is a 400 and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { startTwilioSim, type TwilioSim } from '../../sim/twilio';
import { maskPhoneNumber } from '../../src/contract/phone-mask';
import type { ClientRole } from '../../src/contract/teams';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { hashPassword } from '../../src/server/auth/passwords';
import { createNotifications } from '../../src/server/notifications';
import { markVerified } from '../../src/server/notifications/sms-numbers';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createClient, createSubscription, loginClient, TEST_PASSWORD } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

// Monday 2026-06-08, 15:00 UTC: daytime, and the weekly digest's day.
const clock = Date.UTC(2026, 5, 8, 15, 0);
const CALLER = '+15550001111';
const MASKED = maskPhoneNumber(CALLER);
const ACCOUNT_PHONE = '+12125550143';

describe(`notifications per user (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let twilio: TwilioSim;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    twilio = await startTwilioSim({ accountSid: 'ACtest000', authToken: 'token-test' });
    t = await createTestApp({
      now: () => clock,
      env: {
        SMTP_URL: smtp.smtpUrl,
        TWILIO_ACCOUNT_SID: 'ACtest000',
        TWILIO_AUTH_TOKEN: 'token-test',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: twilio.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await twilio.close();
  });
  beforeEach(() => {
    smtp.clear();
    twilio.clear();
  });

  /** An active user of the client, signed in. */
  async function addUser(clientId: string, role: ClientRole) {
    const id = randomUUID();
    const email = `${role}-${id.slice(0, 8)}@team.test`;
    await t.deps.db
      .insertInto('client_users')
      .values({
        id,
        client_id: clientId,
        email,
        name: `${role} person`,
        password_hash: await hashPassword(TEST_PASSWORD),
        role,
        permissions: '[]',
        status: 'active',
        is_account_login: 0,
        created_at: clock,
        updated_at: clock,
      })
      .execute();
    return { id, email, cookie: await loginClient(t.app, email) };
  }

  /** A client whose login (its Owner) signed in first, then a Manager and a Viewer. */
  async function team() {
    // Signed in for a month already: the weekly digest covers days after its first sign-in.
    const client = await createClient(t.deps, {
      phone_number: ACCOUNT_PHONE,
      notify_from: clock - 30 * 86_400_000,
    });
    const owner = { id: '', email: client.email, cookie: await loginClient(t.app, client.email) };
    const row = await t.deps.db
      .selectFrom('client_users')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    owner.id = row.id;
    return {
      client,
      owner,
      manager: await addUser(client.id, 'manager'),
      viewer: await addUser(client.id, 'viewer'),
    };
  }

  const mine = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/client/me/notifications', headers: { cookie } });
  const choose = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/client/me/notifications', headers: { cookie }, payload });
  const round = async () => {
    const n = createNotifications(t.deps, (e) => {
      throw e;
    });
    await n.worker.runOnce();
    n.close();
  };
  const outboxOf = (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('client_id', '=', clientId)
      .orderBy('dedupe_key')
      .execute();
  const failedCall = (id: string) => ({
    providerCallId: id,
    status: 'failed' as const,
    durationSeconds: 0,
    createdAt: clock - 60_000,
    fromNumber: CALLER,
    insights: { ...NO_INSIGHTS, summary: `Caller asked to be called back at ${CALLER}.` },
  });

  it('answers each person their own choices, the account defaults and where texts go', async () => {
    const { owner, manager } = await team();
    const own = await mine(owner.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({
      email: 'default',
      sms: 'default',
      smsNumber: null,
      smsTo: ACCOUNT_PHONE, // the account login falls back to the account's number
      smsVerified: false, // texts go there once a code sent to it is confirmed
      smsCodePending: false,
      smsAllowed: true,
      defaults: { email: true, sms: false },
      channels: { email: true, sms: true },
    });
    const saved = await choose(manager.cookie, { email: 'off', sms: 'on', smsNumber: '+1 (212) 555-0177' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      email: 'off',
      sms: 'on',
      smsNumber: '+12125550177',
      smsTo: '+12125550177',
    });
    expect((await mine(manager.cookie)).json()).toMatchObject({
      email: 'off',
      sms: 'on',
      smsNumber: '+12125550177',
    });
    // Another person's choices are theirs: the Owner's did not change.
    expect((await mine(owner.cookie)).json()).toMatchObject({
      email: 'default',
      sms: 'default',
      smsNumber: null,
    });
    // Back to the account's default, the number cleared.
    expect(
      (await choose(manager.cookie, { email: 'default', sms: 'off', smsNumber: '' })).json(),
    ).toMatchObject({
      email: 'default',
      sms: 'off',
      smsNumber: null,
      smsTo: null,
    });
    expect((await mine('')).statusCode).toBe(401);
    // Each save is a line of the client's activity, by its person.
    const lines = await t.deps.db
      .selectFrom('client_activity')
      .select('detail')
      .where('user_id', '=', manager.id)
      .where('action', '=', 'settings_change')
      .execute();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0].detail ?? '{}')).toMatchObject({ what: 'my notifications' });
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const { manager } = await team();
    await choose(manager.cookie, { email: 'on' });
    const before = (await mine(manager.cookie)).json();
    for (const payload of [
      { smsNumber: '12345' },
      { smsNumber: 'call me' },
      { email: 'sometimes' },
      { sms: true },
      { email: 'off', somethingElse: 1 },
      // Texts on with nowhere to send them: a Manager has no account number to fall back on.
      { sms: 'on' },
    ]) {
      const res = await choose(manager.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    const text = await choose(manager.cookie, { sms: 'on' });
    expect(text.json()).toMatchObject({ fields: { smsNumber: 'Enter a mobile number to get texts' } });
    expect((await mine(manager.cookie)).json()).toEqual(before);
  });

  it('a client with only its login (signed in, so a user row) gets what it got before teams', async () => {
    const client = await createClient(t.deps, { phone_number: ACCOUNT_PHONE });
    await markVerified(t.deps.db, client.id, ACCOUNT_PHONE, null, clock);
    await loginClient(t.app, client.email);
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      { emailNotifications: true, smsNotifications: true },
      clock,
    );
    await storeCalls(t.deps, client, [failedCall('only-login')]);
    const { id } = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect((await outboxOf(client.id)).map((m) => m.dedupe_key)).toEqual([
      `email:call:${id}`,
      `sms:call:${id}`,
    ]);
    await round();
    expect(smtp.messages.map((m) => m.to)).toEqual([[client.email]]);
    expect(smtp.messages[0].subject).toContain(CALLER);
    expect(twilio.messages.map((m) => m.to)).toEqual([ACCOUNT_PHONE]);
  });

  it('sends a call alert to each person per their choice, once per address, masked for the Viewer', async () => {
    const { client, owner, manager, viewer } = await team();
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      { emailNotifications: true, smsNotifications: false },
      clock,
    );
    // Owner: defaults (e-mail on, texts off). Manager: texts only, to the account's number too
    // (one text for that address). Viewer, granted receive_texts: e-mail (default) and texts to
    // their own number. Both numbers verified (sms-verification.test.ts).
    await markVerified(t.deps.db, client.id, ACCOUNT_PHONE, null, clock);
    await markVerified(t.deps.db, client.id, '+12125550199', null, clock);
    await t.deps.db
      .updateTable('client_users')
      .set({ permissions: '["receive_texts"]' })
      .where('id', '=', viewer.id)
      .execute();
    await choose(owner.cookie, { sms: 'on' });
    expect(
      (await choose(manager.cookie, { email: 'off', sms: 'on', smsNumber: ACCOUNT_PHONE })).statusCode,
    ).toBe(200);
    expect((await choose(viewer.cookie, { sms: 'on', smsNumber: '+12125550199' })).statusCode).toBe(200);

    await storeCalls(t.deps, client, [failedCall('per-user-1')]);
    await storeCalls(t.deps, client, [failedCall('per-user-1')]); // again: nothing new
    const queued = await outboxOf(client.id);
    const call = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(queued.map((m) => `${m.channel} ${m.dedupe_key}`).sort()).toEqual(
      [
        `email email:call:${call.id}`,
        `email email:call:${call.id}:user:${viewer.id}`,
        `sms sms:call:${call.id}`,
        `sms sms:call:${call.id}:user:${viewer.id}`,
      ].sort(),
    );

    await round();
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([owner.email, viewer.email].sort());
    const ownerMail = smtp.messages.find((m) => m.to[0] === owner.email);
    expect(ownerMail?.subject).toContain(CALLER);
    expect(ownerMail?.text).toContain(`From: ${CALLER}`);
    const viewerMail = smtp.messages.find((m) => m.to[0] === viewer.email);
    for (const part of [viewerMail?.subject, viewerMail?.text, viewerMail?.html]) {
      expect(part).toContain(MASKED);
      expect(part).not.toContain('5550001111');
    }
    expect(viewerMail?.text).toContain(`From: ${MASKED}`);

    expect(twilio.messages.map((m) => m.to).sort()).toEqual([ACCOUNT_PHONE, '+12125550199'].sort());
    expect(twilio.messages.find((m) => m.to === ACCOUNT_PHONE)?.body).toContain(CALLER);
    const viewerText = twilio.messages.find((m) => m.to === '+12125550199')?.body ?? '';
    expect(viewerText).toContain(MASKED);
    expect(viewerText).not.toContain('5550001111');
  });

  it('a Viewer granted unmask_numbers sees full numbers; a person deactivated before the send gets nothing', async () => {
    const { client, manager, viewer } = await team();
    await t.deps.db
      .updateTable('client_users')
      .set({ permissions: '["unmask_numbers"]' })
      .where('id', '=', viewer.id)
      .execute();
    await choose(manager.cookie, { email: 'on' });
    await storeCalls(t.deps, client, [failedCall('per-user-2')]);
    expect((await outboxOf(client.id)).filter((m) => m.channel === 'email')).toHaveLength(3);
    await t.deps.db
      .updateTable('client_users')
      .set({ status: 'deactivated' })
      .where('id', '=', manager.id)
      .execute();
    await round();
    expect(smtp.messages.map((m) => m.to[0])).not.toContain(manager.email);
    expect(smtp.messages.find((m) => m.to[0] === viewer.email)?.text).toContain(`From: ${CALLER}`);
    const managerRow = (await outboxOf(client.id)).find((m) => m.dedupe_key.endsWith(`:user:${manager.id}`));
    expect(managerRow?.status).toBe('cancelled');

    // Deactivated when the next call is stored: nothing is queued for them at all.
    await storeCalls(t.deps, client, [failedCall('per-user-3')]);
    expect(
      (await outboxOf(client.id)).filter((m) => m.dedupe_key.endsWith(`:user:${manager.id}`)),
    ).toHaveLength(1);
  });

  it('while the client hides numbers until shown, every e-mail is masked, the Owner’s too', async () => {
    const { client, owner } = await team();
    const hide = await t.app.inject({
      method: 'PUT',
      url: '/api/client/privacy',
      headers: { cookie: owner.cookie },
      payload: { hideNumbersUntilShown: true },
    });
    expect(hide.statusCode).toBe(200);
    await storeCalls(t.deps, client, [failedCall('per-user-hidden')]);
    await round();
    const mail = smtp.messages.find((m) => m.to[0] === owner.email);
    expect(mail?.subject).toContain(MASKED);
    expect(`${mail?.text}${mail?.html}`).not.toContain('5550001111');
  });

  it('billing notices go only to billing holders, digests only to reports holders', async () => {
    const { client, owner, manager, viewer } = await team();
    const second = await addUser(client.id, 'owner');
    await createSubscription(t.deps, client.id, {
      current_period_end: clock + 2 * 86_400_000,
      cancel_at_period_end: 1,
    });
    const n = createNotifications(t.deps, () => {});
    await n.checkAlerts();
    n.close();
    const mails = await outboxOf(client.id);
    const toOf = (topic: string) =>
      mails
        .filter((m) => m.topic === topic)
        .map((m) => JSON.parse(m.payload_json).to)
        .sort();
    expect(toOf('subscription.ending')).toEqual([owner.email, second.email].sort());
    expect(toOf('digest.weekly')).toEqual([owner.email, manager.email, second.email].sort());
    expect(mails.map((m) => JSON.parse(m.payload_json).to)).not.toContain(viewer.email);
    // The account login's notice keeps the key it had before teams.
    expect(
      mails.find((m) => m.topic === 'subscription.ending' && !m.dedupe_key.includes(':user:')),
    ).toBeTruthy();
  });
});
