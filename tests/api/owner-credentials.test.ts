/**
 * A password the agency chose is the Owner's only until their first sign-in: the login and the
 * session answer `mustChangePassword: true`, every other client route answers 403 saying so, the
 * change lifts it, and new credentials from the agency set it again. And nobody deactivates or
 * removes themselves, even with another Owner beside them; the session names the person.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords';
import {
  cookieHeader,
  createAdminUser,
  createClient,
  createSignedInClient,
  loginAdmin,
  TEST_PASSWORD,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const OWN_PASSWORD = 'my very own password';

describe(`owner credentials chosen by the agency (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  async function credentialsFor(clientId: string): Promise<string> {
    const res = await send('POST', `/api/admin/clients/${clientId}/generate-credentials`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['email', 'temporaryPassword']);
    return res.json().temporaryPassword;
  }

  async function signIn(email: string, password: string) {
    const res = await send('POST', '/api/client/login', undefined, { email, password });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json(), cookie: cookieHeader(res.headers['set-cookie']) };
  }

  it('holds a first sign-in with the agency’s password to the change, then lets it through', async () => {
    const client = await createClient(t.deps, { password: null });
    const temporary = await credentialsFor(client.id);
    const first = await signIn(client.email, temporary);
    expect(first.body.mustChangePassword).toBe(true);

    const session = await send('GET', '/api/client/session', first.cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ email: client.email, mustChangePassword: true });

    const calls = await send('GET', '/api/client/calls', first.cookie);
    expect(calls.statusCode).toBe(403);
    expect(calls.json()).toMatchObject({ mustChangePassword: true });
    expect(calls.json().message).toMatch(/choose your own/);
    // Not even the two-factor set-up: the password comes first.
    expect((await send('GET', '/api/client/2fa', first.cookie)).statusCode).toBe(403);

    // A wrong current password changes nothing.
    const wrong = await send('POST', '/api/client/change-password', first.cookie, {
      currentPassword: 'not the one',
      newPassword: OWN_PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect((await send('GET', '/api/client/calls', first.cookie)).statusCode).toBe(403);

    const changed = await send('POST', '/api/client/change-password', first.cookie, {
      currentPassword: temporary,
      newPassword: OWN_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await send('GET', '/api/client/calls', first.cookie)).statusCode).toBe(200);
    const after = await send('GET', '/api/client/session', first.cookie);
    expect(after.json().mustChangePassword).toBeUndefined();
    const again = await signIn(client.email, OWN_PASSWORD);
    expect(again.body.mustChangePassword).toBeUndefined();
  });

  it('sets the rule again with new credentials, and leaves the client’s other people alone', async () => {
    const { client } = await createSignedInClient(t);
    const before = await signIn(client.email, TEST_PASSWORD);
    expect(before.body.mustChangePassword).toBeUndefined();

    const temporary = await credentialsFor(client.id);
    const owner = await signIn(client.email, temporary);
    expect(owner.body.mustChangePassword).toBe(true);
    const settings = await send('GET', '/api/client/notifications', owner.cookie);
    expect(settings.statusCode).toBe(403);
    expect(settings.json().mustChangePassword).toBe(true);

    // Another client is untouched.
    const other = await createSignedInClient(t);
    expect((await send('GET', '/api/client/calls', other.cookie)).statusCode).toBe(200);
  });

  it('refuses to deactivate or remove oneself, with 409, while another Owner can', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const secondId = randomUUID();
    const secondEmail = `second-owner-${secondId.slice(0, 8)}@example.com`;
    await t.deps.db
      .insertInto('client_users')
      .values({
        id: secondId,
        client_id: client.id,
        email: secondEmail,
        name: 'Second Owner',
        password_hash: await hashPassword(TEST_PASSWORD),
        role: 'owner',
        permissions: '[]',
        status: 'active',
        is_account_login: 0,
        invite_token_hash: null,
        invite_expires_at: null,
        invited_by: null,
        created_at: t.deps.now(),
        updated_at: t.deps.now(),
        last_sign_in_at: null,
      })
      .execute();
    const users = (await send('GET', '/api/client/users', cookie)).json() as { id: string; email: string }[];
    const me = users.find((u) => u.email === client.email);
    expect(me).toBeDefined();
    const deactivated = await send('PATCH', `/api/client/users/${me?.id}`, cookie, { active: false });
    expect(deactivated.statusCode).toBe(409);
    expect(deactivated.json().message).toMatch(/cannot deactivate yourself/);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/client/users/${me?.id}`,
      headers: { cookie },
    });
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toMatch(/cannot remove yourself/);
    // Nothing changed: still signed in, still an active Owner.
    expect((await send('GET', '/api/client/users', cookie)).json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: client.email, status: 'active', role: 'owner' }),
      ]),
    );
    const second = await signIn(secondEmail, TEST_PASSWORD);
    // The session names the person signed in, not only the account (the header shows it).
    const secondSession = await send('GET', '/api/client/session', second.cookie);
    expect(secondSession.json()).toMatchObject({ email: client.email, user: { email: secondEmail } });
    const byOther = await send('PATCH', `/api/client/users/${me?.id}`, second.cookie, { active: false });
    expect(byOther.statusCode, byOther.body).toBe(200);
  });
});
