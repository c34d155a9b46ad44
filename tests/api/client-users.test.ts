/**
 * Client teams: the old login is the account's Owner; an Owner invites people by
 * e-mail (through the outbox to the SMTP stand-in), they accept and sign in; roles are enforced;
 * the last Owner stays; a user grants only what they hold; resend and revoke; expired links;
 * sessions end when a user is deactivated or removed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { INVITATION_TTL_MS } from '../../src/contract/teams';
import { createNotifications } from '../../src/server/notifications';
import { cookieHeader, createSignedInClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

let clock = Date.UTC(2026, 5, 10, 15, 0);
const NEW_PASSWORD = 'a long enough password';

describe(`client teams (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    t = await createTestApp({ now: () => clock, env: { SMTP_URL: smtp.smtpUrl } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    cookie?: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  /** Sends what the outbox holds and answers the token of the invitation e-mailed to `to`. */
  async function invitationTokenFor(to: string): Promise<string> {
    await createNotifications(t.deps, () => {}).worker.runOnce();
    const mail = [...smtp.messages].reverse().find((m) => m.to.includes(to));
    expect(mail, `an invitation e-mail to ${to}`).toBeDefined();
    const link = /\/accept-invite\?token=([\w%-]+)/.exec(mail?.text ?? '');
    expect(link).not.toBeNull();
    return decodeURIComponent(link?.[1] ?? '');
  }

  async function invite(cookie: string, email: string, role: string, permissions?: string[]) {
    const res = await send('POST', '/api/client/users', cookie, { email, role, permissions });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; status: string };
  }

  async function accept(token: string, name = 'New Person') {
    return send('POST', '/api/client/invitations/accept', undefined, { token, name, password: NEW_PASSWORD });
  }

  it('keeps the old login working: it is the Owner, and the session names the user', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const session = await send('GET', '/api/client/session', cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      id: client.id,
      email: client.email,
      user: { name: 'Test Client', role: 'owner', permissions: expect.arrayContaining(['billing', 'users']) },
    });
    const users = await send('GET', '/api/client/users', cookie);
    expect(users.json()).toEqual([
      expect.objectContaining({ email: client.email, role: 'owner', status: 'active', twoFactor: false }),
    ]);
    const actions = await t.deps.db
      .selectFrom('client_activity')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['sign_in']);
  });

  it('invites by e-mail, the invited person accepts, is signed in and signs in again with the login', async () => {
    const { client, cookie } = await createSignedInClient(t, { company_name: 'Bright Smile' });
    const created = await invite(cookie, 'Manager@Example.com', 'manager', ['export']);
    expect(created.status).toBe('invited');
    const token = await invitationTokenFor('manager@example.com');
    // Only the hash is stored; the outbox holds the e-mail sealed.
    const stored = await t.deps.db
      .selectFrom('client_users')
      .selectAll()
      .where('email', '=', 'manager@example.com')
      .executeTakeFirstOrThrow();
    expect(stored.invite_token_hash).not.toBe(token);
    const outbox = await t.deps.db
      .selectFrom('outbox')
      .select('payload_json')
      .where('client_id', '=', client.id)
      .execute();
    expect(outbox.some((m) => m.payload_json.includes(token))).toBe(false);

    const accepted = await accept(token, 'Maria Manager');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ success: true, client: { id: client.id } });
    const managerCookie = cookieHeader(accepted.headers['set-cookie']);
    const session = await send('GET', '/api/client/session', managerCookie);
    expect(session.json().user).toMatchObject({ name: 'Maria Manager', role: 'manager' });
    // Single use.
    expect((await accept(token)).statusCode).toBe(400);
    // The login works for every user, with the same answer.
    const again = await send('POST', '/api/client/login', undefined, {
      email: 'manager@example.com',
      password: NEW_PASSWORD,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(accepted.json());
    const list = (await send('GET', '/api/client/users', cookie)).json();
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email: 'manager@example.com',
          role: 'manager',
          permissions: ['export'],
          status: 'active',
        }),
      ]),
    );
  });

  it('enforces roles on the server: a Viewer reads calls, is refused billing, exports and users by name', async () => {
    const { cookie } = await createSignedInClient(t);
    await invite(cookie, 'viewer-1@example.com', 'viewer');
    const viewer = cookieHeader(
      (await accept(await invitationTokenFor('viewer-1@example.com'))).headers['set-cookie'],
    );
    expect((await send('GET', '/api/client/calls', viewer)).statusCode).toBe(200);
    const billing = await send('GET', '/api/client/subscription', viewer);
    expect(billing.statusCode).toBe(403);
    expect(billing.json().message).toContain('billing');
    const exported = await send('GET', '/api/client/calls/export?format=csv', viewer);
    expect(exported.statusCode).toBe(403);
    expect(exported.json().message).toContain('export');
    const users = await send('POST', '/api/client/users', viewer, { email: 'x@example.com', role: 'viewer' });
    expect(users.statusCode).toBe(403);
    expect(users.json().message).toContain('users');
  });

  it('refuses an e-mail that already belongs to a person of the account, with 409', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const taken = await send('POST', '/api/client/users', cookie, { email: client.email, role: 'viewer' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/already belongs to a person of this account/);
    // Another client's address is answered like a free one (tests/api/address-identity.test.ts).
  });

  it('keeps the last Owner: not removed, demoted or deactivated; with a second Owner it can be', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const [owner] = (await send('GET', '/api/client/users', cookie)).json();
    for (const [method, payload] of [
      ['PATCH', { role: 'manager' }],
      ['PATCH', { active: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(method, `/api/client/users/${owner.id}`, cookie, payload);
      expect(res.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(409);
      expect(res.json().message).toBe('At least one active Owner must remain');
    }
    await invite(cookie, `second-owner-${client.id.slice(0, 6)}@example.com`, 'owner');
    const second = cookieHeader(
      (await accept(await invitationTokenFor(`second-owner-${client.id.slice(0, 6)}@example.com`))).headers[
        'set-cookie'
      ],
    );
    const demoted = await send('PATCH', `/api/client/users/${owner.id}`, second, { role: 'manager' });
    expect(demoted.statusCode).toBe(200);
    // Patch semantics: the grants were kept, only the role changed.
    expect(demoted.json()).toMatchObject({ role: 'manager', status: 'active', permissions: [] });
    // The old login is a Manager now: no users any more.
    expect((await send('GET', '/api/client/users', cookie)).statusCode).toBe(403);
    const activity = await t.deps.db
      .selectFrom('client_activity')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    expect(activity.map((a) => a.action)).toEqual(expect.arrayContaining(['invite', 'role_change']));
  });

  it('ends a user’s sessions at once when deactivated or removed; they cannot sign in', async () => {
    const { cookie } = await createSignedInClient(t);
    const a = await invite(cookie, 'deactivate-me@example.com', 'manager');
    const aCookie = cookieHeader(
      (await accept(await invitationTokenFor('deactivate-me@example.com'))).headers['set-cookie'],
    );
    expect((await send('GET', '/api/client/calls', aCookie)).statusCode).toBe(200);
    expect((await send('PATCH', `/api/client/users/${a.id}`, cookie, { active: false })).json().status).toBe(
      'deactivated',
    );
    expect((await send('GET', '/api/client/calls', aCookie)).statusCode).toBe(401);
    const refused = await send('POST', '/api/client/login', undefined, {
      email: 'deactivate-me@example.com',
      password: NEW_PASSWORD,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'Invalid email or password' });
    // Active again: signs in again (the old cookie stays dead).
    expect((await send('PATCH', `/api/client/users/${a.id}`, cookie, { active: true })).json().status).toBe(
      'active',
    );
    expect((await send('GET', '/api/client/calls', aCookie)).statusCode).toBe(401);
    const bCookie = await loginClient(t.app, 'deactivate-me@example.com', NEW_PASSWORD);
    expect((await send('DELETE', `/api/client/users/${a.id}`, cookie)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/calls', bCookie)).statusCode).toBe(401);
    const sessions = await t.deps.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', a.id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('resends (the old link dies) and revokes (the link dies, the address is free again)', async () => {
    const { cookie } = await createSignedInClient(t);
    const user = await invite(cookie, 'resend@example.com', 'viewer');
    const first = await invitationTokenFor('resend@example.com');
    expect((await send('POST', `/api/client/users/${user.id}/resend-invite`, cookie)).statusCode).toBe(200);
    const second = await invitationTokenFor('resend@example.com');
    expect(second).not.toBe(first);
    const dead = await accept(first);
    expect(dead.statusCode).toBe(400);
    expect(dead.json().message).toMatch(/not valid/);
    // Revoke: the invited user is removed; its link stops working.
    expect((await send('DELETE', `/api/client/users/${user.id}`, cookie)).statusCode).toBe(200);
    expect((await accept(second)).statusCode).toBe(400);
    await invite(cookie, 'resend@example.com', 'viewer');
  });

  it('refuses an expired invitation with 410 and changes nothing; an unknown token with 400', async () => {
    const { cookie } = await createSignedInClient(t);
    const user = await invite(cookie, 'late@example.com', 'viewer');
    const token = await invitationTokenFor('late@example.com');
    clock += INVITATION_TTL_MS + 1;
    const late = await accept(token);
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toMatch(/expired/);
    const row = await t.deps.db
      .selectFrom('client_users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('invited');
    expect(row.password_hash).toBeNull();
    expect((await accept('not-a-token')).statusCode).toBe(400);
    // A new link works again.
    await send('POST', `/api/client/users/${user.id}/resend-invite`, cookie);
    expect((await accept(await invitationTokenFor('late@example.com'))).statusCode).toBe(200);
  });

  it('refuses a password shorter than today’s rule', async () => {
    const { cookie } = await createSignedInClient(t);
    await invite(cookie, 'short@example.com', 'viewer');
    const token = await invitationTokenFor('short@example.com');
    const res = await send('POST', '/api/client/invitations/accept', undefined, {
      token,
      name: 'S',
      password: 'short',
    });
    expect(res.statusCode).toBe(400);
  });

  it('records a failed sign-in of a known user in the client’s activity', async () => {
    const { client } = await createSignedInClient(t);
    // The clock is pinned: a second later, so the two lines have an order of their own.
    clock += 1_000;
    const res = await send('POST', '/api/client/login', undefined, {
      email: client.email,
      password: 'wrong password!',
    });
    expect(res.statusCode).toBe(401);
    const rows = await t.deps.db
      .selectFrom('client_activity')
      .select('action')
      .where('client_id', '=', client.id)
      .orderBy('at')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['sign_in', 'sign_in_failed']);
  });
});
