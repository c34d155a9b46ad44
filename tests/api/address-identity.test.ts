/**
 * One identity per e-mail address: a pending invitation claims no address, so a client
 * the agency creates later with it signs in and the invitation can no longer be accepted; an
 * Owner's invitation answers alike whether or not the address is another client's (and is never
 * sent then), after the cap, which counts refusals; the admin's e-mail edit refuses a person's
 * address; and a removed account login gets working credentials back and can be re-invited.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { createNotifications } from '../../src/server/notifications';
import {
  cookieHeader,
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const NEW_PASSWORD = 'a long enough password';
const CAP = 6;

describe(`one identity per address (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    t = await createTestApp({
      env: { SMTP_URL: smtp.smtpUrl, CAP_INVITATIONS_PER_DAY: String(CAP) },
    });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    cookie?: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@atk.test`;

  /** Sends what the outbox holds; the e-mails that went to `to`. */
  async function mailsTo(to: string) {
    await createNotifications(t.deps, () => {}).worker.runOnce();
    return smtp.messages.filter((m) => m.to.includes(to));
  }

  async function invitationTokenFor(to: string): Promise<string> {
    const mail = (await mailsTo(to)).at(-1);
    expect(mail, `an invitation e-mail to ${to}`).toBeDefined();
    const link = /\/accept-invite\?token=([\w%-]+)/.exec(mail?.text ?? '');
    return decodeURIComponent(link?.[1] ?? '');
  }

  const invite = (cookie: string, email: string, role = 'viewer') =>
    send('POST', '/api/client/users', cookie, { email, role });

  const accept = (token: string, name = 'New Person') =>
    send('POST', '/api/client/invitations/accept', undefined, { token, name, password: NEW_PASSWORD });

  const login = (email: string, password: string) =>
    send('POST', '/api/client/login', undefined, { email, password });

  /** The wizard as the admin runs it: draft, a test call reaching its URL, finalize, credentials. */
  async function onboard(email: string) {
    const draft = await send('POST', '/api/admin/generate-webhook', admin, {
      firstName: 'Hotel',
      lastName: 'Owner',
      email,
      companyName: 'Hotel Co',
    });
    if (draft.statusCode !== 201) return { draft };
    const { id, webhookUrl } = draft.json();
    const delivered = await t.app.inject({
      method: 'POST',
      url: new URL(webhookUrl).pathname,
      payload: {
        call_id: randomUUID(),
        to: '+14155550100',
        from: '+14155550199',
        call_length: 1,
        created_at: new Date().toISOString(),
        completed: true,
        status: 'completed',
        transcripts: [],
      },
    });
    expect(delivered.statusCode).toBe(200);
    expect((await send('POST', `/api/admin/finalize-client/${id}`, admin)).statusCode).toBe(200);
    const credentials = await send('POST', `/api/admin/clients/${id}/generate-credentials`, admin);
    expect(credentials.statusCode, credentials.body).toBe(200);
    return { draft, id: id as string, password: credentials.json().temporaryPassword as string };
  }

  it('lets the agency give a client an address another client invited; that invitation can no longer be accepted', async () => {
    const alpha = await createSignedInClient(t, { company_name: 'Alpha Co' });
    const hotel = unique('hotel');
    expect((await invite(alpha.cookie, hotel)).statusCode).toBe(201);
    const token = await invitationTokenFor(hotel);

    const created = await onboard(hotel);
    expect(created.draft.statusCode, created.draft.body).toBe(201);
    // Hotel's own login works.
    const signedIn = await login(hotel, created.password ?? '');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().client.id).toBe(created.id);

    // The person following Alpha's link is told why, and lands nowhere.
    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json().message).toMatch(/already has its own account/);
    expect(accepted.headers['set-cookie']).toBeUndefined();
    // Alpha's list is as it was: it learns nothing about Hotel.
    const alphaUsers = (await send('GET', '/api/client/users', alpha.cookie)).json();
    expect(alphaUsers).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: hotel, status: 'invited' })]),
    );
    expect((await login(hotel, created.password ?? '')).json().client.id).toBe(created.id);
  });

  it('answers an invitation of another client’s address like any other, and never sends it', async () => {
    const alpha = await createSignedInClient(t);
    const bravo = await createSignedInClient(t);
    // A person who joined Bravo's team.
    const member = unique('member');
    expect((await invite(bravo.cookie, member)).statusCode).toBe(201);
    expect((await accept(await invitationTokenFor(member))).statusCode).toBe(200);
    smtp.clear();

    const free = unique('free');
    const answers = [];
    for (const email of [free, bravo.client.email, member]) {
      const res = await invite(alpha.cookie, email);
      expect(res.statusCode, `${email}: ${res.body}`).toBe(201);
      const { id, createdAt, email: shown, ...rest } = res.json();
      expect(shown).toBe(email);
      answers.push(rest);
    }
    // The same answer whatever the address is elsewhere.
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await mailsTo(free)).toHaveLength(1);
    expect(await mailsTo(bravo.client.email)).toHaveLength(0);
    expect(await mailsTo(member)).toHaveLength(0);
    // Resending is alike too, and still sends nothing there.
    const users = (await send('GET', '/api/client/users', alpha.cookie)).json() as {
      id: string;
      email: string;
    }[];
    const toMember = users.find((u) => u.email === member);
    expect(
      (await send('POST', `/api/client/users/${toMember?.id}/resend-invite`, alpha.cookie)).statusCode,
    ).toBe(200);
    expect(await mailsTo(member)).toHaveLength(0);
    // Bravo's people still sign in to Bravo.
    const memberLogin = await login(member, NEW_PASSWORD);
    expect(memberLogin.json().client.id).toBe(bravo.client.id);

    // Only the inviting client's own people are refused, in words about this account.
    const own = await invite(alpha.cookie, free);
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toMatch(/person of this account, or is invited/);
  });

  it('counts refused invitations in the daily cap', async () => {
    const alpha = await createSignedInClient(t);
    for (let i = 0; i < CAP; i += 1) {
      const res = await invite(alpha.cookie, alpha.client.email);
      expect(res.statusCode).toBe(409);
    }
    const capped = await invite(alpha.cookie, alpha.client.email);
    expect(capped.statusCode).toBe(429);
    expect(capped.headers['retry-after']).toBeDefined();
  });

  it('refuses an admin e-mail edit to a person’s address; a pending invitation does not hold one', async () => {
    const alpha = await createSignedInClient(t);
    const member = unique('member');
    const pending = unique('pending');
    expect((await invite(alpha.cookie, member)).statusCode).toBe(201);
    expect((await accept(await invitationTokenFor(member))).statusCode).toBe(200);
    expect((await invite(alpha.cookie, pending)).statusCode).toBe(201);
    const pendingToken = await invitationTokenFor(pending);

    // A client never signed in since teams (no user rows yet).
    const charlie = await createClient(t.deps);
    const edit = (email: string) => send('PUT', `/api/admin/client-config/${charlie.id}`, admin, { email });
    const refused = await edit(member);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/person of another client/);
    expect((await login(member, NEW_PASSWORD)).json().client.id).toBe(alpha.client.id);

    const moved = await edit(pending);
    expect(moved.statusCode, moved.body).toBe(200);
    const charlieLogin = await login(pending, 'correct horse battery');
    expect(charlieLogin.statusCode, charlieLogin.body).toBe(200);
    expect(charlieLogin.json().client.id).toBe(charlie.id);
    expect((await accept(pendingToken)).statusCode).toBe(409);

    // The client's own account form refuses a person's address too, without saying whose.
    const charlieCookie = cookieHeader(charlieLogin.headers['set-cookie']);
    const own = await send('PUT', '/api/client/account', charlieCookie, { email: member });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe('This email address is already used by another account');
  });

  /** A client whose original login an Owner removed (through a second Owner). */
  async function clientWithoutItsLogin() {
    const alpha = await createSignedInClient(t);
    const second = unique('second-owner');
    expect((await invite(alpha.cookie, second, 'owner')).statusCode).toBe(201);
    const secondCookie = cookieHeader((await accept(await invitationTokenFor(second))).headers['set-cookie']);
    const users = (await send('GET', '/api/client/users', secondCookie)).json() as {
      id: string;
      email: string;
    }[];
    const original = users.find((u) => u.email === alpha.client.email);
    expect((await send('DELETE', `/api/client/users/${original?.id}`, secondCookie)).statusCode).toBe(200);
    return { client: alpha.client, secondCookie };
  }

  it('gives a client whose login was removed working credentials again', async () => {
    const { client, secondCookie } = await clientWithoutItsLogin();
    const credentials = await send('POST', `/api/admin/clients/${client.id}/generate-credentials`, admin);
    expect(credentials.statusCode).toBe(200);
    const signedIn = await login(client.email, credentials.json().temporaryPassword);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = await send('GET', '/api/client/session', cookieHeader(signedIn.headers['set-cookie']));
    expect(session.json().user).toMatchObject({ role: 'owner' });
    const users = (await send('GET', '/api/client/users', secondCookie)).json();
    expect(users).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: client.email, role: 'owner', status: 'active' }),
      ]),
    );
    const activity = (await send('GET', '/api/client/activity?action=user_activated', secondCookie)).json();
    expect(activity.items[0].detail).toMatchObject({ email: client.email, restoredLogin: true });
  });

  it('re-invites a removed login’s address, which becomes the client’s login again', async () => {
    const { client, secondCookie } = await clientWithoutItsLogin();
    const again = await invite(secondCookie, client.email, 'manager');
    expect(again.statusCode, again.body).toBe(201);
    const accepted = await accept(await invitationTokenFor(client.email), 'Back Again');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await login(client.email, NEW_PASSWORD)).statusCode).toBe(200);
    // It is the account's login: the agency's credentials replace its password.
    const credentials = await send('POST', `/api/admin/clients/${client.id}/generate-credentials`, admin);
    expect((await login(client.email, credentials.json().temporaryPassword)).statusCode).toBe(200);
    expect((await login(client.email, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it('answers 409 with what to do when the client’s login was deactivated', async () => {
    const alpha = await createSignedInClient(t);
    const second = unique('second-owner');
    expect((await invite(alpha.cookie, second, 'owner')).statusCode).toBe(201);
    const secondCookie = cookieHeader((await accept(await invitationTokenFor(second))).headers['set-cookie']);
    const users = (await send('GET', '/api/client/users', secondCookie)).json() as {
      id: string;
      email: string;
    }[];
    const original = users.find((u) => u.email === alpha.client.email);
    expect(
      (await send('PATCH', `/api/client/users/${original?.id}`, secondCookie, { active: false })).statusCode,
    ).toBe(200);
    const credentials = await send(
      'POST',
      `/api/admin/clients/${alpha.client.id}/generate-credentials`,
      admin,
    );
    expect(credentials.statusCode).toBe(409);
    expect(credentials.json().message).toMatch(/deactivated by an Owner.*reactivate it in Settings › Users/);
  });
});
