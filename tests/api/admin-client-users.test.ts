/**
 * The agency's side of a client's team: an admin lists a client's users, resends an
 * invitation and e-mails a user a single-use link to choose a new password (served by the
 * invitation accept route), which ends their sessions. Another client's user is a 404; a client
 * session reaches none of it; each write is an audit line and a client activity line.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { createNotifications } from '../../src/server/notifications';
import {
  cookieHeader,
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
  loginClient,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const clock = Date.UTC(2026, 5, 10, 15, 0);
const NEW_PASSWORD = 'a brand new password';

describe(`admin: a client's users (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let adminCookie: string;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    t = await createTestApp({ now: () => clock, env: { SMTP_URL: smtp.smtpUrl } });
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  const send = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  /** Sends what the outbox holds and answers the token of the last link e-mailed to `to`. */
  async function linkTokenFor(to: string): Promise<{ token: string; text: string }> {
    await createNotifications(t.deps, () => {}).worker.runOnce();
    const mail = [...smtp.messages].reverse().find((m) => m.to.includes(to));
    expect(mail, `an e-mail to ${to}`).toBeDefined();
    const link = /\/accept-invite\?token=([\w%-]+)/.exec(mail?.text ?? '');
    expect(link).not.toBeNull();
    return { token: decodeURIComponent(link?.[1] ?? ''), text: mail?.text ?? '' };
  }

  async function ownerWithInvitedViewer() {
    const { client, cookie } = await createSignedInClient(t, { company_name: 'Bright Smile' });
    const res = await send('POST', '/api/client/users', cookie, {
      email: `viewer-${client.id.slice(0, 8)}@example.com`,
      role: 'viewer',
    });
    expect(res.statusCode, res.body).toBe(201);
    return { client, cookie, viewer: res.json() as { id: string; email: string } };
  }

  it('lists the client’s users with role, status, last sign-in and two-factor', async () => {
    const { client, viewer } = await ownerWithInvitedViewer();
    const res = await send('GET', `/api/admin/clients/${client.id}/users`, adminCookie);
    expect(res.statusCode, res.body).toBe(200);
    // Under the pinned clock both rows share created_at: the order between them is the id's.
    expect(res.json()).toHaveLength(2);
    expect(res.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email: client.email,
          role: 'owner',
          status: 'active',
          lastSignInAt: expect.any(String),
          twoFactor: false,
        }),
        expect.objectContaining({ id: viewer.id, role: 'viewer', status: 'invited', lastSignInAt: null }),
      ]),
    );
    expect((await send('GET', '/api/admin/clients/no-such-client/users', adminCookie)).statusCode).toBe(404);
  });

  it('shows the Owner of a client that never signed in (its login made by the agency)', async () => {
    const client = await createClient(t.deps);
    const res = await send('GET', `/api/admin/clients/${client.id}/users`, adminCookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ email: client.email, role: 'owner', status: 'active', lastSignInAt: null }),
    ]);
  });

  it('resends an invitation: the old link stops working, the new one signs in', async () => {
    const { client, viewer } = await ownerWithInvitedViewer();
    const first = await linkTokenFor(viewer.email);
    smtp.clear();
    const res = await send(
      'POST',
      `/api/admin/clients/${client.id}/users/${viewer.id}/resend-invite`,
      adminCookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: viewer.id, status: 'invited' });
    const second = await linkTokenFor(viewer.email);
    expect(second.token).not.toBe(first.token);
    const old = await send('POST', '/api/client/invitations/accept', undefined, {
      token: first.token,
      name: 'Vera Viewer',
      password: NEW_PASSWORD,
    });
    expect(old.statusCode).toBe(400);
    const accepted = await send('POST', '/api/client/invitations/accept', undefined, {
      token: second.token,
      name: 'Vera Viewer',
      password: NEW_PASSWORD,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // An accepted user has no invitation to resend.
    const again = await send(
      'POST',
      `/api/admin/clients/${client.id}/users/${viewer.id}/resend-invite`,
      adminCookie,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already accepted/);

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('client_id', '=', client.id)
      .execute();
    expect(audit).toEqual([
      { action: 'client.user_resend_invite', detail: JSON.stringify({ targetId: viewer.id }) },
    ]);
    const activity = await t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'user_id'])
      .where('client_id', '=', client.id)
      .where('action', '=', 'invite_resent')
      .execute();
    expect(activity).toEqual([{ action: 'invite_resent', user_id: null }]);
  });

  it('sends the Owner a set-password link: sessions end, the link sets a new password once', async () => {
    const { client, cookie } = await createSignedInClient(t, { company_name: 'Reset Dental' });
    const owner = (await send('GET', '/api/client/session', cookie)).json().user as { id: string };
    const res = await send(
      'POST',
      `/api/admin/clients/${client.id}/users/${owner.id}/reset-password`,
      adminCookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    // Signed out everywhere at once.
    expect((await send('GET', '/api/client/session', cookie)).statusCode).toBe(401);
    // The old password still works until the link is used (a mistyped address locks nobody out).
    await loginClient(t.app, client.email);

    const { token, text } = await linkTokenFor(client.email);
    expect(text).toContain('Set a new password for Reset Dental');
    expect(text).toContain('&reset=1');
    // No name needed for a reset: the user keeps theirs.
    const used = await send('POST', '/api/client/invitations/accept', undefined, {
      token,
      password: NEW_PASSWORD,
    });
    expect(used.statusCode, used.body).toBe(200);
    const session = (
      await send('GET', '/api/client/session', cookieHeader(used.headers['set-cookie']))
    ).json();
    expect(session.user).toMatchObject({ id: owner.id, name: 'Test Client', role: 'owner' });
    // The new password is the account's login now; the old one is refused; the link is spent.
    await loginClient(t.app, client.email, NEW_PASSWORD);
    const old = await send('POST', '/api/client/login', undefined, {
      email: client.email,
      password: 'password123',
    });
    expect(old.statusCode).toBe(401);
    const twice = await send('POST', '/api/client/invitations/accept', undefined, {
      token,
      password: NEW_PASSWORD,
    });
    expect(twice.statusCode).toBe(400);

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['client.user_reset_password']);
    const lines = await t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'user_id'])
      .where('client_id', '=', client.id)
      .where('action', '=', 'password_change')
      .orderBy('at')
      .execute();
    // The agency's request (no client user) and the owner's use of the link. Both can fall in the
    // same millisecond, so their order is not the test's business.
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(
      expect.arrayContaining([
        { action: 'password_change', user_id: null },
        { action: 'password_change', user_id: owner.id },
      ]),
    );
  });

  it('refuses a reset for an invited user, and an invitation still needs a name', async () => {
    const { client, viewer } = await ownerWithInvitedViewer();
    const res = await send(
      'POST',
      `/api/admin/clients/${client.id}/users/${viewer.id}/reset-password`,
      adminCookie,
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/invited user needs the invitation again/);
    const { token } = await linkTokenFor(viewer.email);
    const nameless = await send('POST', '/api/client/invitations/accept', undefined, {
      token,
      password: NEW_PASSWORD,
    });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().message).toBe('Enter your name');
  });

  it('answers 404 for another client’s user, and a client session reaches none of it', async () => {
    const { client: mine } = await ownerWithInvitedViewer();
    const { viewer: theirs, cookie: theirCookie } = await ownerWithInvitedViewer();
    for (const action of ['resend-invite', 'reset-password']) {
      const res = await send(
        'POST',
        `/api/admin/clients/${mine.id}/users/${theirs.id}/${action}`,
        adminCookie,
      );
      expect(res.statusCode, action).toBe(404);
      expect(res.json()).toEqual({ message: 'User not found' });
    }
    expect((await send('GET', `/api/admin/clients/${mine.id}/users`, theirCookie)).statusCode).toBe(403);
    expect((await send('GET', `/api/admin/clients/${mine.id}/users`)).statusCode).toBe(401);
  });
});
