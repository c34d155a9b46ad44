import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/server/auth/attempt-limits';
import { createAdminUser, createClient, loginAdmin, loginClient, TEST_PASSWORD } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`auth (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });

  it('logs a client in with an HttpOnly SameSite=Lax cookie and answers the session without secrets', async () => {
    const client = await createClient(t.deps, { email: 'ann@example.com', bland_api_key_enc: 'sealed-key' });
    const res = await post('/api/client/login', { email: 'Ann@Example.com ', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, client: { id: client.id, email: 'ann@example.com' } });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/client_sid=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/);

    const cookie = setCookie.split(';')[0];
    const session = await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    const body = session.json();
    expect(body).toMatchObject({
      email: 'ann@example.com',
      companyName: 'Acme Test Co',
      apiKeyStatus: 'missing',
      timezone: 'UTC',
    });
    expect(body.webhookUrl).toBe(`http://localhost:5000/api/webhooks/voice/${client.webhook_token}`);
    expect(JSON.stringify(body)).not.toMatch(/sealed-key|password|scrypt/i);
  });

  it('answers the same 401 for an unknown e-mail and a wrong password', async () => {
    await createClient(t.deps, { email: 'bob@example.com' });
    const wrong = await post('/api/client/login', { email: 'bob@example.com', password: 'nope' });
    const unknown = await post('/api/client/login', { email: 'nobody@example.com', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses clients that are deactivated, not yet onboarded or have no password', async () => {
    await createClient(t.deps, { email: 'off@example.com', is_active: 0 });
    await createClient(t.deps, { email: 'draft@example.com', onboarding_status: 'pending' });
    await createClient(t.deps, { email: 'nopw@example.com', password: null });
    for (const email of ['off@example.com', 'draft@example.com', 'nopw@example.com']) {
      const res = await post('/api/client/login', { email, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers bad bodies with 400 JSON, never 500', async () => {
    const cases: [unknown, string?][] = [
      [{}],
      [{ email: 'a@b.co' }],
      [{ email: 42, password: 'x' }],
      [{ email: 'a@b.co', password: ['x'] }],
      [[]],
      ['{"email": "a@b.co", ', 'application/json'],
      ['email=a&password=b', 'application/x-www-form-urlencoded'],
    ];
    for (const [payload, type] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/client/login',
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers: { 'content-type': type ?? 'application/json' },
      });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(payload)).toBeLessThan(500);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await post('/api/client/login', { email: 'a@b.co', password: 'x'.repeat(1_100_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/);
  });

  it('limits failed logins per account and IP, without slowing other IPs', async () => {
    await createClient(t.deps, { email: 'carol@example.com' });
    const attempt = (password: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/client/login',
        payload: { email: 'carol@example.com', password },
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i++) expect((await attempt('wrong', '10.0.0.1')).statusCode).toBe(401);
    const blocked = await attempt(TEST_PASSWORD, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed login attempts/);
    expect((await attempt(TEST_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
  });

  it('counts each guess before checking it: 60 at once get at most 10 evaluated', async () => {
    await createClient(t.deps, { email: 'racer@example.com' });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/client/login',
          payload: { email: 'racer@example.com', password: 'wrong guess' },
          remoteAddress: '10.1.1.1',
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.perAccountAndAddress);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60 - LIMITS.perAccountAndAddress);
    expect(answers.find((a) => a.statusCode === 429)?.headers['retry-after']).toBeDefined();
  });

  it('guesses spread over many addresses meet a doubling pause on the account', async () => {
    await createClient(t.deps, { email: 'target@example.com' });
    let evaluated = 0;
    for (let address = 0; address < 20; address++) {
      for (let guess = 0; guess < 10; guess++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/client/login',
          payload: { email: 'target@example.com', password: `guess-${address}-${guess}` },
          remoteAddress: `10.2.0.${address + 1}`,
        });
        if (res.statusCode === 401) evaluated++;
        else expect(res.statusCode).toBe(429);
      }
    }
    // 200 tries, but after the first failures each one must wait 1 s, 2 s, 4 s, … first.
    expect(evaluated).toBeLessThanOrEqual(LIMITS.pauseAfter + 2);
  });

  it('a browser that signed in before keeps signing in while its address is sprayed', async () => {
    await createClient(t.deps, { email: 'owner@example.com' });
    const login = (email: string, password: string, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/client/login',
        payload: { email, password },
        remoteAddress: '10.3.3.3',
        headers: cookie ? { cookie } : {},
      });
    const first = await login('owner@example.com', TEST_PASSWORD);
    expect(first.statusCode).toBe(200);
    const setCookies = [first.headers['set-cookie']].flat().map(String);
    const device = setCookies.find((c) => c.startsWith('cap_device_client='));
    expect(device).toMatch(/HttpOnly/i);
    const deviceCookie = String(device).split(';')[0];

    // Someone at the same address sprays made-up accounts until the address is blocked.
    for (let i = 0; i < LIMITS.perAddress; i++) await login(`nobody-${i}@example.com`, 'x');
    expect((await login('nobody-else@example.com', 'x')).statusCode).toBe(429);
    // An unknown browser of the owner's is blocked with the address; the owner's browser is not.
    expect((await login('owner@example.com', TEST_PASSWORD)).statusCode).toBe(429);
    expect((await login('owner@example.com', TEST_PASSWORD, deviceCookie)).statusCode).toBe(200);
    // A device cookie is for its own account only.
    await createClient(t.deps, { email: 'other-owner@example.com' });
    expect((await login('other-owner@example.com', TEST_PASSWORD, deviceCookie)).statusCode).toBe(429);
  });

  it('limits guesses of the current password when changing it', async () => {
    const client = await createClient(t.deps, { email: 'changer@example.com' });
    const cookie = await loginClient(t.app, client.email);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/client/change-password',
        payload: {
          currentPassword,
          newPassword: 'a brand new password',
          confirmPassword: 'a brand new password',
        },
        headers: { cookie },
      });
    for (let i = 0; i < LIMITS.perAccountAndAddress; i++)
      expect((await change(`guess ${i}`)).statusCode).toBe(400);
    const blocked = await change(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    const row = await t.deps.db
      .selectFrom('clients')
      .select('password_hash')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBe(client.password_hash);
  });

  it('re-hashes a password stored with older scrypt parameters at the next successful login', async () => {
    const salt = randomBytes(16);
    const old = scryptSync(TEST_PASSWORD, salt, 64, { N: 16384, r: 8, p: 1 });
    const oldHash = ['scrypt', 16384, 8, 1, salt.toString('base64url'), old.toString('base64url')].join('$');
    const client = await createClient(t.deps, { email: 'legacy-hash@example.com', password_hash: oldHash });
    const admin = await createAdminUser(t.deps, 'legacy-admin');
    await t.deps.db
      .updateTable('admins')
      .set({ password_hash: oldHash })
      .where('id', '=', admin.id)
      .execute();

    await loginClient(t.app, client.email);
    await loginAdmin(t.app, 'legacy-admin', TEST_PASSWORD);
    const clientRow = await t.deps.db
      .selectFrom('clients')
      .select('password_hash')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    const adminRow = await t.deps.db
      .selectFrom('admins')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    for (const stored of [clientRow.password_hash, adminRow.password_hash]) {
      expect(stored).not.toBe(oldHash);
      expect(stored?.split('$')[1]).not.toBe('16384');
    }
    // And the new hashes still sign in.
    await loginClient(t.app, client.email);
    await loginAdmin(t.app, 'legacy-admin', TEST_PASSWORD);
  });

  it('logout ends the session on the server, not only in the browser', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    expect((await post('/api/client/logout', undefined, { cookie })).json()).toEqual({ success: true });
    const session = await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie } });
    expect(session.statusCode).toBe(401);
    expect(session.json().message).toBe('Unauthorized');
  });

  it('rotates the session id at login', async () => {
    const client = await createClient(t.deps);
    const first = await loginClient(t.app, client.email);
    const res = await post(
      '/api/client/login',
      { email: client.email, password: TEST_PASSWORD },
      { cookie: first },
    );
    const second = String(res.headers['set-cookie']).split(';')[0];
    expect(second).not.toBe(first);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: first } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie: second } }))
        .statusCode,
    ).toBe(200);
  });

  it('revoking a client’s sessions logs every browser out', async () => {
    const client = await createClient(t.deps);
    const a = await loginClient(t.app, client.email);
    const b = await loginClient(t.app, client.email);
    await t.deps.sessions.destroyAllFor('client', client.id);
    for (const cookie of [a, b]) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie } })).statusCode,
      ).toBe(401);
    }
  });

  it('admin login, session and logout', async () => {
    const admin = await createAdminUser(t.deps, 'Root');
    const bad = await post('/api/admin/login', { username: 'root', password: 'nope' });
    expect(bad.statusCode).toBe(401);
    expect(typeof bad.json().message).toBe('string');
    const cookie = await loginAdmin(t.app, ' root '.trim(), admin.password);
    const session = await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ name: 'Ada Admin', username: 'root' });
    await post('/api/admin/logout', undefined, { cookie });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode,
    ).toBe(401);
  });

  it('a client cookie is not an admin session', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })).statusCode,
    ).toBe(401);
  });

  it('refuses state-changing requests from another origin', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const foreign = await post('/api/client/logout', undefined, { cookie, origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    const viaReferer = await post('/api/client/logout', undefined, {
      cookie,
      referer: 'https://evil.example/page',
    });
    expect(viaReferer.statusCode).toBe(403);
    const own = await post('/api/client/logout', undefined, { cookie, origin: 'http://localhost:5000' });
    expect(own.statusCode).toBe(200);
  });

  it('GET /api/login sends the browser to the client login page; unknown API paths are 404 JSON', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe('/client-login');
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not found' });
  });

  it('sends security headers on every answer, errors included', async () => {
    for (const url of ['/api/health', '/api/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain('https://js.stripe.com');
      expect(csp).not.toContain('upgrade-insecure-requests'); // PUBLIC_URL is http here
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
