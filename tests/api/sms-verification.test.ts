/**
 * Texts are not a toll-fraud channel: a number gets texts only once a code texted to it is
 * confirmed (10 minutes, 5 tries), only a mobile number of a kind a person carries is accepted
 * (premium-rate, shared-cost, satellite and fixed-line numbers are refused), only holders of
 * `receive_texts` get texts (Owners and Managers, not Viewers), and a client is sent at most
 * TEXTS_PER_CLIENT_PER_DAY texts a day: past it nothing is sent, the outbox row says why and
 * the agency is told once. Numbers stored before verification existed start unverified.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTwilioSim, type TwilioSim } from '../../sim/twilio';
import { SMS_NUMBER_MESSAGES } from '../../src/contract/notification-choices';
import type { ClientRole } from '../../src/contract/teams';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { hashPassword } from '../../src/server/auth/passwords';
import { createNotifications } from '../../src/server/notifications';
import { markVerified } from '../../src/server/notifications/sms-numbers';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient, TEST_PASSWORD } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

// 15:00 in New York (EDT): daytime, no quiet hours.
let clock = Date.UTC(2026, 5, 10, 19, 0);
const TEXTS_PER_DAY = 4;
const ADMIN_EMAIL = 'agency@sms.test';

describe(`text numbers: verification, kinds, permission, daily cap (${TEST_DB})`, () => {
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
        ADMIN_EMAIL,
        TEXTS_PER_CLIENT_PER_DAY: String(TEXTS_PER_DAY),
        CAP_SMS_CODES_PER_HOUR: '3',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });
  beforeEach(() => twilio.clear());

  async function addUser(clientId: string, role: ClientRole) {
    const id = randomUUID();
    const email = `${role}-${id.slice(0, 8)}@sms.test`;
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

  /** A client texting on attention (account switch on), its login signed in, a Manager and a Viewer. */
  async function team(phone: string | null = null) {
    const client = await createClient(t.deps, { timezone: 'America/New_York', phone_number: phone });
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      {
        emailNotifications: false,
        smsNotifications: true,
        webhookNotifications: false,
        monthlyReports: false,
      },
      clock,
    );
    const owner = { cookie: await loginClient(t.app, client.email) };
    return {
      client,
      owner,
      manager: await addUser(client.id, 'manager'),
      viewer: await addUser(client.id, 'viewer'),
    };
  }

  const mine = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/client/me/notifications', headers: { cookie } })).json();
  const choose = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/client/me/notifications', headers: { cookie }, payload });
  const sendCode = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/client/me/notifications/sms-code', headers: { cookie } });
  const confirm = (cookie: string, code: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/client/me/notifications/sms-code/confirm',
      headers: { cookie },
      payload: { code },
    });
  const codeTextedTo = (number: string) => {
    const text = twilio.messages.filter((m) => m.to === number).at(-1);
    return /\b(\d{6})\b/.exec(text?.body ?? '')?.[1] ?? '';
  };
  const round = async () => {
    const n = createNotifications(t.deps, (e) => {
      throw e;
    });
    await n.worker.runOnce();
    n.close();
  };
  let calls = 0;
  const failedCall = () => ({
    providerCallId: `sms-verify-${++calls}`,
    status: 'failed' as const,
    durationSeconds: 0,
    createdAt: clock - 60_000,
    insights: NO_INSIGHTS,
  });
  const textsOf = (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('channel', '=', 'sms')
      .orderBy('created_at')
      .execute();

  it('refuses premium-rate, shared-cost, satellite and non-mobile numbers, saving nothing', async () => {
    const { manager } = await team();
    const before = await mine(manager.cookie);
    const refused: [string, string][] = [
      ['+882 1234 56789', SMS_NUMBER_MESSAGES.international],
      ['+881 6123 456789', SMS_NUMBER_MESSAGES.international],
      ['+883 5100 12345', SMS_NUMBER_MESSAGES.international],
      ['+870 7123 456', SMS_NUMBER_MESSAGES.international],
      ['+1 900 555 0123', SMS_NUMBER_MESSAGES.premium],
      ['+33 8 90 12 34 56', SMS_NUMBER_MESSAGES.premium],
      ['+33 8 10 12 34 56', SMS_NUMBER_MESSAGES.sharedCost],
      ['+1 800 555 0199', SMS_NUMBER_MESSAGES.notMobile],
      ['+44 20 7946 0000', SMS_NUMBER_MESSAGES.notMobile],
    ];
    for (const [number, message] of refused) {
      const res = await choose(manager.cookie, { sms: 'on', smsNumber: number });
      expect(res.statusCode, number).toBe(400);
      expect(res.json(), number).toEqual({ message, fields: { smsNumber: message } });
    }
    expect(await mine(manager.cookie)).toEqual(before);
    // A mobile number is fine (saved, not yet verified).
    const ok = await choose(manager.cookie, { sms: 'on', smsNumber: '+33 6 12 34 56 78' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ smsNumber: '+33612345678', smsVerified: false, smsCodePending: false });
  });

  it('texts nothing to an unverified number; a confirmed code makes it textable', async () => {
    const { client, manager } = await team();
    const number = '+12125550177';
    expect((await choose(manager.cookie, { sms: 'on', smsNumber: number })).statusCode).toBe(200);
    await storeCalls(t.deps, client, [failedCall()]);
    expect(await textsOf(client.id)).toHaveLength(0);

    const sent = await sendCode(manager.cookie);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ smsTo: number, smsVerified: false, smsCodePending: true });
    expect(twilio.messages.map((m) => m.to)).toEqual([number]);
    const code = codeTextedTo(number);
    expect(code).toMatch(/^\d{6}$/);

    const wrong = await confirm(manager.cookie, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SMS_NUMBER_MESSAGES.codeWrong);
    expect((await confirm(manager.cookie, 'abc')).statusCode).toBe(400);
    const right = await confirm(manager.cookie, code);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ smsVerified: true, smsCodePending: false });
    // Used once: the same code again finds nothing waiting; asking for another is a conflict.
    expect((await confirm(manager.cookie, code)).statusCode).toBe(400);
    expect((await sendCode(manager.cookie)).statusCode).toBe(409);

    twilio.clear();
    await storeCalls(t.deps, client, [failedCall()]);
    await round();
    expect(twilio.messages.map((m) => m.to)).toEqual([number]);
    expect(twilio.messages[0].body).toContain('needs attention');
  });

  it('a code expires after 10 minutes and after 5 wrong tries', async () => {
    const { manager, owner } = await team('+12125550143');
    await choose(manager.cookie, { smsNumber: '+12125550188' });
    expect((await sendCode(manager.cookie)).statusCode).toBe(200);
    const late = codeTextedTo('+12125550188');
    const saved = clock;
    clock += 10 * 60 * 1000 + 1;
    const expired = await confirm(manager.cookie, late);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(SMS_NUMBER_MESSAGES.noCode);
    clock = saved;

    // The account login's texts go to the account's number: that one is verified the same way.
    expect((await sendCode(owner.cookie)).statusCode).toBe(200);
    const code = codeTextedTo('+12125550143');
    const other = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await confirm(owner.cookie, other)).statusCode).toBe(400);
    const tooLate = await confirm(owner.cookie, code);
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toBe(SMS_NUMBER_MESSAGES.noCode);
    expect(await mine(owner.cookie)).toMatchObject({ smsTo: '+12125550143', smsVerified: false });
  });

  it('a number stored before verification existed (or the account’s) gets no texts until verified', async () => {
    const { client, manager } = await team('+12125550143');
    await t.deps.db
      .updateTable('client_users')
      .set({ sms_number: '+12125550166', notify_sms: 1 })
      .where('id', '=', manager.id)
      .execute();
    await storeCalls(t.deps, client, [failedCall()]);
    await round();
    expect(await textsOf(client.id)).toHaveLength(0);
    expect(twilio.messages).toHaveLength(0);
    // A text queued before verification existed is not sent either.
    const { id: callId } = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('outbox')
      .values({
        id: randomUUID(),
        client_id: client.id,
        channel: 'sms',
        topic: 'call.attention',
        dedupe_key: `sms:call:${callId}:user:${manager.id}`,
        payload_json: JSON.stringify({ callId, reasons: ['The call failed'], userId: manager.id }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: clock,
        created_at: clock,
      })
      .execute();
    await round();
    expect(twilio.messages).toHaveLength(0);
    expect((await textsOf(client.id))[0]).toMatchObject({
      status: 'cancelled',
      last_error: expect.stringContaining('not been verified'),
    });
  });

  it('a Viewer may not turn texts on, give a number or ask for a code, and gets no texts', async () => {
    const { client, viewer } = await team();
    expect((await choose(viewer.cookie, { sms: 'on', smsNumber: '+12125550199' })).statusCode).toBe(403);
    expect((await choose(viewer.cookie, { smsNumber: '+12125550199' })).statusCode).toBe(403);
    expect((await sendCode(viewer.cookie)).statusCode).toBe(403);
    expect((await confirm(viewer.cookie, '123456')).statusCode).toBe(403);
    // Turning texts off and e-mail choices stay anyone's.
    expect((await choose(viewer.cookie, { sms: 'off', email: 'on' })).statusCode).toBe(200);
    expect(await mine(viewer.cookie)).toMatchObject({ smsAllowed: false, smsNumber: null });

    // A number the Viewer saved earlier, even verified by someone, gets nothing.
    await t.deps.db
      .updateTable('client_users')
      .set({ sms_number: '+12125550199', notify_sms: 1 })
      .where('id', '=', viewer.id)
      .execute();
    await markVerified(t.deps.db, client.id, '+12125550199', null, clock);
    await storeCalls(t.deps, client, [failedCall()]);
    await round();
    expect(twilio.messages).toHaveLength(0);
  });

  it('caps texts per client per day: the rest are not sent, say why, and the agency is told once', async () => {
    const saved = clock;
    clock = Date.UTC(2026, 5, 12, 15, 0); // a day of its own for the budget
    const { client, manager } = await team();
    await choose(manager.cookie, { sms: 'on', smsNumber: '+12125550155' });
    expect((await sendCode(manager.cookie)).statusCode).toBe(200); // one text of the day's 4
    expect((await confirm(manager.cookie, codeTextedTo('+12125550155'))).statusCode).toBe(200);
    twilio.clear();

    await storeCalls(t.deps, client, [failedCall(), failedCall(), failedCall(), failedCall(), failedCall()]);
    await round();
    expect(twilio.messages).toHaveLength(TEXTS_PER_DAY - 1);
    const rows = await textsOf(client.id);
    expect(rows.map((r) => r.status).sort()).toEqual(['cancelled', 'cancelled', 'sent', 'sent', 'sent']);
    for (const row of rows.filter((r) => r.status === 'cancelled'))
      expect(row.last_error).toContain('TEXTS_PER_CLIENT_PER_DAY');
    const alerts = await t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('topic', '=', 'admin.texts-cap')
      .where('client_id', '=', client.id)
      .execute();
    expect(alerts).toHaveLength(1);
    expect(JSON.parse(alerts[0].payload_json)).toMatchObject({
      to: ADMIN_EMAIL,
      subject: `${client.company_name || client.email} reached its ${TEXTS_PER_DAY} texts for today`,
    });

    // A code is a text too: none left today.
    await choose(manager.cookie, { smsNumber: '+12125550156' });
    const code = await sendCode(manager.cookie);
    expect(code.statusCode).toBe(429);
    expect(code.headers['retry-after']).toBeDefined();

    // The next day the budget is whole again.
    clock += 24 * 60 * 60 * 1000;
    await choose(manager.cookie, { smsNumber: '+12125550155' });
    twilio.clear();
    await storeCalls(t.deps, client, [failedCall()]);
    await round();
    expect(twilio.messages).toHaveLength(1);
    clock = saved;
  });

  it('caps verification codes per user per hour', async () => {
    const { manager } = await team();
    await choose(manager.cookie, { smsNumber: '+12125550133' });
    for (let i = 0; i < 3; i++) expect((await sendCode(manager.cookie)).statusCode).toBe(200);
    const fourth = await sendCode(manager.cookie);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers['retry-after']).toBeDefined();
    expect(twilio.messages).toHaveLength(3);
  });
});
