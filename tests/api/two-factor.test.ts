/**
 * Two-factor sign-in: set-up, enable (ten recovery codes, once), disable; the login's
 * second step with a TOTP code (good once: replay refused) or a recovery code (good once); wrong
 * codes in the login's attempt limits; the pending sign-in's five minutes; an Owner's and the
 * agency's requirement; the agency's reset of a client user's second factor. Codes are computed
 * here from the otpauth secret, at the pinned clock.
 */
import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '../../src/contract/two-factor';
import { hashPassword } from '../../src/server/auth/passwords';
import { sha256Hex } from '../../src/server/crypto/secrets';
import {
  cookieHeader,
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
  TEST_PASSWORD,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const START = Date.UTC(2026, 5, 10, 15, 0, 5);
let clock = START;
/** Moves the clock to the next 30-second step, so that a new code exists. */
const nextStep = () => {
  clock += 30_000;
};

describe(`two-factor sign-in (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.close());

  const send = (method: string, url: string, cookie?: string, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: cookie ? { cookie } : {},
    });

  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(clock / 1000) });

  /** Sets up and enables two-factor sign-in under a prefix; answers the secret and the codes. */
  async function enable(prefix: '/api/client/2fa' | '/api/admin/2fa', cookie: string) {
    const setup = await send('POST', `${prefix}/setup`, cookie);
    expect(setup.statusCode, setup.body).toBe(200);
    const { otpauthUrl, qrSvg } = setup.json() as { otpauthUrl: string; qrSvg: string };
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(qrSvg).toContain('<svg');
    const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
    const res = await send('POST', `${prefix}/enable`, cookie, { code: await codeFor(secret) });
    expect(res.statusCode, res.body).toBe(200);
    const { recoveryCodes } = res.json() as { recoveryCodes: string[] };
    return { secret, recoveryCodes };
  }

  async function ownerWithTwoFactor() {
    const { client, cookie } = await createSignedInClient(t);
    const { secret, recoveryCodes } = await enable('/api/client/2fa', cookie);
    nextStep();
    return { client, cookie, secret, recoveryCodes };
  }

  const login = (email: string, password = TEST_PASSWORD) =>
    send('POST', '/api/client/login', undefined, { email, password });

  async function activity(clientId: string) {
    return t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'detail'])
      .where('client_id', '=', clientId)
      .execute();
  }

  /** A second, active user of the client, who signs in with TEST_PASSWORD. */
  async function addManager(clientId: string) {
    const id = randomUUID();
    const email = `manager-${id.slice(0, 8)}@example.com`;
    await t.deps.db
      .insertInto('client_users')
      .values({
        id,
        client_id: clientId,
        email,
        name: 'Mia Manager',
        password_hash: await hashPassword(TEST_PASSWORD),
        role: 'manager',
        permissions: '[]',
        status: 'active',
        is_account_login: 0,
        invite_token_hash: null,
        invite_expires_at: null,
        invited_by: null,
        created_at: clock,
        updated_at: clock,
        last_sign_in_at: null,
      })
      .execute();
    const res = await login(email);
    expect(res.statusCode, res.body).toBe(200);
    return { id, email, cookie: cookieHeader(res.headers['set-cookie']) };
  }

  it('sets up, enables with a code (ten recovery codes, once), and disables with a code', async () => {
    const { client, cookie } = await createSignedInClient(t);
    expect((await send('GET', '/api/client/2fa', cookie)).json()).toEqual({
      enabled: false,
      required: false,
    });
    expect((await send('POST', '/api/client/2fa/enable', cookie, { code: '123456' })).statusCode).toBe(409);

    const setup = await send('POST', '/api/client/2fa/setup', cookie);
    const secret = new URL(setup.json().otpauthUrl).searchParams.get('secret') ?? '';
    expect(setup.json().otpauthUrl).toContain(encodeURIComponent(client.email));
    const wrong = await send('POST', '/api/client/2fa/enable', cookie, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    const enabled = await send('POST', '/api/client/2fa/enable', cookie, { code: await codeFor(secret) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const codes: string[] = enabled.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    // Stored sealed and hashed, never as shown.
    const row = await t.deps.db
      .selectFrom('client_users')
      .selectAll()
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.two_factor_secret_enc).not.toContain(secret);
    expect(t.deps.secrets.decrypt(row.two_factor_secret_enc ?? '')).toBe(secret);
    const stored = await t.deps.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('subject_id', '=', row.id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((s) => s.code_hash)).not.toContain(codes[0]);

    expect((await send('GET', '/api/client/2fa', cookie)).json()).toEqual({ enabled: true, required: false });
    expect((await send('POST', '/api/client/2fa/setup', cookie)).statusCode).toBe(409);
    const users = await send('GET', '/api/client/users', cookie);
    expect(users.json()[0]).toMatchObject({ twoFactor: true });

    nextStep();
    expect((await send('POST', '/api/client/2fa/disable', cookie, { code: '000000' })).statusCode).toBe(400);
    const off = await send('POST', '/api/client/2fa/disable', cookie, { code: await codeFor(secret) });
    expect(off.statusCode, off.body).toBe(200);
    expect((await send('GET', '/api/client/2fa', cookie)).json()).toEqual({
      enabled: false,
      required: false,
    });
    expect(
      await t.deps.db
        .selectFrom('two_factor_recovery_codes')
        .select('id')
        .where('subject_id', '=', row.id)
        .execute(),
    ).toEqual([]);
    const actions = (await activity(client.id)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor_enabled', 'two_factor_disabled']));
  });

  it('signs in with a code after the password, opening no session before it; a code is good once', async () => {
    const { client, secret } = await ownerWithTwoFactor();
    const first = await login(client.email);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    const pending = cookieHeader(first.headers['set-cookie']);
    expect(pending).toContain('client_2fa=');
    expect(pending).not.toContain('client_sid=');
    expect((await send('GET', '/api/client/session', pending)).statusCode).toBe(401);

    const code = await codeFor(secret);
    const done = await send('POST', '/api/client/login/2fa', pending, { code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ success: true, client: { id: client.id, email: client.email } });
    const session = cookieHeader(done.headers['set-cookie']);
    expect((await send('GET', '/api/client/session', session)).statusCode).toBe(200);
    // The pending sign-in is spent.
    expect((await send('POST', '/api/client/login/2fa', pending, { code })).statusCode).toBe(401);

    // The same code again, on a new sign-in within its step: a replay.
    const again = cookieHeader((await login(client.email)).headers['set-cookie']);
    const replay = await send('POST', '/api/client/login/2fa', again, { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    nextStep();
    expect(
      (await send('POST', '/api/client/login/2fa', again, { code: await codeFor(secret) })).statusCode,
    ).toBe(200);
  });

  it('accepts each recovery code once, and records its use', async () => {
    const { client, recoveryCodes } = await ownerWithTwoFactor();
    const pending = cookieHeader((await login(client.email)).headers['set-cookie']);
    const used = await send('POST', '/api/client/login/2fa', pending, {
      code: recoveryCodes[3].toUpperCase(),
    });
    expect(used.statusCode, used.body).toBe(200);
    expect((await activity(client.id)).map((a) => a.action)).toContain('recovery_code_used');

    const second = cookieHeader((await login(client.email)).headers['set-cookie']);
    expect((await send('POST', '/api/client/login/2fa', second, { code: recoveryCodes[3] })).statusCode).toBe(
      401,
    );
    expect((await send('POST', '/api/client/login/2fa', second, { code: recoveryCodes[4] })).statusCode).toBe(
      200,
    );
  });

  it('counts wrong codes in the login’s attempt limits', async () => {
    const { client, secret } = await ownerWithTwoFactor();
    const pending = cookieHeader((await login(client.email)).headers['set-cookie']);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await send('POST', '/api/client/login/2fa', pending, { code: '000000' })).statusCode);
    // The password counted once: nine wrong codes are refused as wrong, then the limit answers.
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(statuses.slice(9)).toEqual([429, 429, 429]);
    const right = await send('POST', '/api/client/login/2fa', pending, { code: await codeFor(secret) });
    expect(right.statusCode).toBe(429);
    expect((await activity(client.id)).filter((a) => a.action === 'sign_in_failed')).toHaveLength(9);
  });

  it('lets a pending sign-in expire after five minutes', async () => {
    const { client, secret } = await ownerWithTwoFactor();
    const pending = cookieHeader((await login(client.email)).headers['set-cookie']);
    clock += 5 * 60 * 1000 + 1000;
    const late = await send('POST', '/api/client/login/2fa', pending, { code: await codeFor(secret) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
    expect((await send('POST', '/api/client/login/2fa', undefined, { code: '123456' })).statusCode).toBe(401);
  });

  it('refuses bad codes clearly', async () => {
    const { cookie } = await createSignedInClient(t);
    for (const payload of [{}, { code: '' }, { code: 'x'.repeat(65) }, { code: 123456 }]) {
      const res = await send('POST', '/api/client/2fa/disable', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await send('PUT', '/api/client/2fa/requirement', cookie, { required: 'yes' })).statusCode).toBe(
      400,
    );
  });

  it('enforces an Owner’s requirement: a user without it reaches only the set-up', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const tooSoon = await send('PUT', '/api/client/2fa/requirement', cookie, { required: true });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().message).toBe(TWO_FACTOR_MESSAGES.enableYourselfFirst);
    await enable('/api/client/2fa', cookie);
    const manager = await addManager(client.id);
    expect(
      (await send('PUT', '/api/client/2fa/requirement', manager.cookie, { required: true })).statusCode,
    ).toBe(403);
    const on = await send('PUT', '/api/client/2fa/requirement', cookie, { required: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ required: true });

    const blocked = await send('GET', '/api/client/sessions', manager.cookie);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe(TWO_FACTOR_MESSAGES.setupRequired);
    expect((await send('GET', '/api/client/session', manager.cookie)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/2fa', manager.cookie)).json()).toEqual({
      enabled: false,
      required: true,
    });
    nextStep();
    await enable('/api/client/2fa', manager.cookie);
    expect((await send('GET', '/api/client/sessions', manager.cookie)).statusCode).toBe(200);
    // Required: it cannot be turned off.
    const off = await send('POST', '/api/client/2fa/disable', cookie, { code: '000000' });
    expect(off.statusCode).toBe(409);
    expect((await send('PUT', '/api/client/2fa/requirement', cookie, { required: false })).statusCode).toBe(
      200,
    );
  });

  it('lets an admin turn off a client user’s second factor, ending their sessions; another client’s user is a 404', async () => {
    const admin = await createAdminUser(t.deps);
    const adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    const { client, cookie } = await ownerWithTwoFactor();
    const owner = await t.deps.db
      .selectFrom('client_users')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    const other = await createClient(t.deps);
    expect(
      (await send('POST', `/api/admin/clients/${other.id}/users/${owner.id}/reset-2fa`, adminCookie))
        .statusCode,
    ).toBe(404);
    expect(
      (await send('POST', `/api/admin/clients/${client.id}/users/${owner.id}/reset-2fa`, cookie)).statusCode,
    ).toBe(403);

    const res = await send(
      'POST',
      `/api/admin/clients/${client.id}/users/${owner.id}/reset-2fa`,
      adminCookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await send('GET', '/api/client/session', cookie)).statusCode).toBe(401);
    const relogin = await login(client.email);
    expect(relogin.json()).toMatchObject({ success: true });
    const line = (await activity(client.id)).find((a) => a.action === 'two_factor_reset');
    expect(JSON.parse(line?.detail ?? '{}')).toMatchObject({ admin: 'Ada Admin', userId: owner.id });
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'client_id'])
      .where('admin_id', '=', admin.id)
      .execute();
    expect(audit).toContainEqual({ action: 'client.user_reset_two_factor', client_id: client.id });
    expect(
      await t.deps.db
        .selectFrom('two_factor_recovery_codes')
        .select('id')
        .where('subject_id', '=', owner.id)
        .execute(),
    ).toEqual([]);
  });

  it('still asks for the code after a password reset link (a link is not a second factor)', async () => {
    const { client, secret } = await ownerWithTwoFactor();
    const owner = await t.deps.db
      .selectFrom('client_users')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    // What the agency's reset-password sends: a single-use link for an active user.
    const token = randomUUID();
    await t.deps.db
      .updateTable('client_users')
      .set({ invite_token_hash: sha256Hex(token), invite_expires_at: clock + 60 * 60 * 1000 })
      .where('id', '=', owner.id)
      .execute();
    const accepted = await send('POST', '/api/client/invitations/accept', undefined, {
      token,
      name: 'Test Client',
      password: 'a brand new password',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ twoFactorRequired: true });
    const pending = cookieHeader(accepted.headers['set-cookie']);
    expect(pending).not.toContain('client_sid=');
    const done = await send('POST', '/api/client/login/2fa', pending, { code: await codeFor(secret) });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('gives admins the same: set-up, sign-in with a code, and the agency’s requirement', async () => {
    const admin = await createAdminUser(t.deps);
    const cookie = await loginAdmin(t.app, admin.username, admin.password);
    const tooSoon = await send('PUT', '/api/admin/2fa/requirement', cookie, { required: true });
    expect(tooSoon.statusCode).toBe(409);
    const { secret, recoveryCodes } = await enable('/api/admin/2fa', cookie);
    expect(recoveryCodes).toHaveLength(10);
    nextStep();

    const first = await send('POST', '/api/admin/login', undefined, {
      username: admin.username,
      password: admin.password,
    });
    expect(first.json()).toEqual({ twoFactorRequired: true });
    const pending = cookieHeader(first.headers['set-cookie']);
    expect(pending).not.toContain('admin_sid=');
    const done = await send('POST', '/api/admin/login/2fa', pending, { code: await codeFor(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ id: admin.id, username: admin.username });
    const session = cookieHeader(done.headers['set-cookie']);
    expect((await send('GET', '/api/admin/session', session)).statusCode).toBe(200);

    // The agency's rule: another admin without it reaches only the set-up.
    const other = await createAdminUser(t.deps);
    const otherCookie = await loginAdmin(t.app, other.username, other.password);
    expect((await send('PUT', '/api/admin/2fa/requirement', session, { required: true })).statusCode).toBe(
      200,
    );
    const blocked = await send('GET', '/api/admin/clients', otherCookie);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe(TWO_FACTOR_MESSAGES.adminSetupRequired);
    expect((await send('GET', '/api/admin/2fa', otherCookie)).json()).toEqual({
      enabled: false,
      required: true,
    });
    expect((await send('GET', '/api/admin/session', otherCookie)).statusCode).toBe(200);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('admin_id', '=', admin.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('admins.require_two_factor');

    // Off again with a recovery code once the rule is lifted.
    expect((await send('PUT', '/api/admin/2fa/requirement', session, { required: false })).statusCode).toBe(
      200,
    );
    expect((await send('GET', '/api/admin/clients', otherCookie)).statusCode).toBe(200);
    const off = await send('POST', '/api/admin/2fa/disable', session, { code: recoveryCodes[0] });
    expect(off.statusCode, off.body).toBe(200);
    expect((await send('GET', '/api/admin/2fa', session)).json()).toEqual({
      enabled: false,
      required: false,
    });
  });
});
