/**
 * The two-factor requirement holds on every route that reads or writes data, whatever its path:
 * from Fastify's own route table, every signed-in route but the set-up answers 403 "set it up" to
 * a client's user whose client requires it (signed in before it was required) and to an admin
 * while the agency requires it, the recording download included. A route added later is checked
 * here unasked; a new public route must be added to the list below, after asking whether it reads
 * anything of a client's through a session. Turning it on ends the person's other sessions (one
 * opened before, a stolen cookie among them), and an admin's own changes are audit lines.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '../../src/contract/two-factor';
import type { RouteAccess } from '../../src/server/auth/guards';
import { SET_UP_ROUTES } from '../../src/server/auth/two-factor-requirement';
import { setAdminsRequireTwoFactor } from '../../src/server/auth/two-factor-store';
import { updateClient } from '../../src/server/clients/clients-repository';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * The routes anyone reaches: sign-in and its probes, provider deliveries in (their own token or
 * signature), the probes and the API description, the agency's brand (shown before sign-in), the
 * demo tenant, PayPal's redirects back (they name no client's data), an invitation's link.
 */
const PUBLIC_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/*',
  'GET /api/openapi.json',
  'GET /api/health',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'POST /api/client/login',
  'POST /api/client/logout',
  'GET /api/client/session',
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'GET /api/admin/session',
  'POST /api/client/login/2fa',
  'POST /api/admin/login/2fa',
  'GET /api/login',
  'POST /api/webhooks/voice/:token',
  'GET /api/billing/config',
  'POST /api/webhooks/stripe',
  'GET /api/billing/paypal/return',
  'GET /api/billing/paypal/cancel',
  'POST /api/webhooks/paypal',
  'GET /api/demo/calls',
  'GET /api/demo/stats',
  'GET /api/demo/calls-over-time',
  'GET /api/demo/calls/:id',
  'GET /api/demo/outcomes/summary',
  'GET /api/demo/outcomes-over-time',
  'GET /api/demo/quality/summary',
  'GET /api/demo/attention',
  'GET /api/demo/dashboard',
  'GET /api/demo/recording/:id',
  'POST /api/client/invitations/accept',
  // The inviting company's name for a live link's token, nothing else (accept-invite page).
  'POST /api/client/invitations/lookup',
  'GET /api/brand',
  'GET /brand-assets/:file',
  'GET /manifest.webmanifest',
  'GET /brand-icons/:file',
  'GET /favicon.ico',
  'GET /robots.txt',
];

const keyOf = (r: RouteAccess) => `${r.method} ${r.url}`;

/** Path parameters filled with plausible ids: the guard answers before anything is looked up. */
const concrete = (pattern: string, clientId: string) =>
  pattern.replace(/:(id|clientId)\b/g, clientId).replace(/:\w+/g, 'some-id');

describe(`two-factor requirement on every route (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (method: Method, url: string, cookie: string) =>
    t.app.inject({ method, url, headers: { cookie } });

  it('lists every public route, none of which reads a client’s data through a session', () => {
    const open = t.app.routeTable.filter((r) => r.access === 'public').map(keyOf);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('answers 403 "set it up" on every client route but the set-up, to a session opened before the rule', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    // The Owner (every permission), signed in before the client required it.
    await updateClient(t.deps.db, client.id, { require_two_factor: 1 });
    const routes = t.app.routeTable.filter(
      (r) => (r.access === 'client' || r.access === 'client_or_admin') && !SET_UP_ROUTES.has(keyOf(r)),
    );
    expect(routes.map(keyOf)).toContain('GET /api/recording/:id');
    expect(routes.map(keyOf)).toContain('GET /api/client/calls/export');
    expect(routes.map(keyOf)).toContain('GET /api/client/events');
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const res = await send(route.method as Method, concrete(route.url, client.id), cookie);
      expect(res.statusCode, keyOf(route)).toBe(403);
      expect(res.json().message, keyOf(route)).toBe(TWO_FACTOR_MESSAGES.setupRequired);
    }
    // What setting it up needs still answers.
    expect((await send('GET', '/api/client/session', cookie)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/2fa', cookie)).json()).toEqual({ enabled: false, required: true });
    expect((await send('POST', '/api/client/2fa/setup', cookie)).statusCode).toBe(200);
  });

  it('answers 403 "set it up" on every admin route but the set-up while the agency requires it', async () => {
    const admin = await createAdminUser(t.deps);
    const cookie = await loginAdmin(t.app, admin.username, admin.password);
    await setAdminsRequireTwoFactor(t.deps.db, true);
    try {
      const target = await createClient(t.deps);
      const routes = t.app.routeTable.filter(
        (r) => (r.access === 'admin' || r.access === 'client_or_admin') && !SET_UP_ROUTES.has(keyOf(r)),
      );
      expect(routes.map(keyOf)).toContain('GET /api/recording/:id');
      expect(routes.map(keyOf)).toContain('GET /api/admin/client-recording/:clientId/:id');
      expect(routes.length).toBeGreaterThan(60);
      for (const route of routes) {
        const res = await send(route.method as Method, concrete(route.url, target.id), cookie);
        expect(res.statusCode, keyOf(route)).toBe(403);
        expect(res.json().message, keyOf(route)).toBe(TWO_FACTOR_MESSAGES.adminSetupRequired);
      }
      expect((await send('GET', '/api/admin/session', cookie)).statusCode).toBe(200);
      expect((await send('GET', '/api/admin/2fa', cookie)).json()).toEqual({
        enabled: false,
        required: true,
      });
    } finally {
      await setAdminsRequireTwoFactor(t.deps.db, false);
    }
  });
});

describe(`turning two-factor sign-in on and off (${TEST_DB})`, () => {
  let clock = Date.UTC(2026, 5, 10, 15, 0, 5);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(() => t.close());

  const send = (method: Method, url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });
  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(clock / 1000) });

  /** Sets up and turns on two-factor sign-in with `cookie`'s session; answers the secret. */
  async function enable(prefix: '/api/client/2fa' | '/api/admin/2fa', cookie: string) {
    const setup = await send('POST', `${prefix}/setup`, cookie);
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = new URL(setup.json().otpauthUrl).searchParams.get('secret') ?? '';
    const res = await send('POST', `${prefix}/enable`, cookie, { code: await codeFor(secret) });
    expect(res.statusCode, res.body).toBe(200);
    clock += 30_000;
    return { secret, recoveryCodes: res.json().recoveryCodes as string[] };
  }

  it('ends a client user’s other sessions when they turn it on, keeping the one that did', async () => {
    const client = await createClient(t.deps);
    const here = await loginClient(t.app, client.email);
    const elsewhere = await loginClient(t.app, client.email);
    const another = await createClient(t.deps);
    const bystander = await loginClient(t.app, another.email);
    await enable('/api/client/2fa', here);
    expect((await send('GET', '/api/client/sessions', elsewhere)).statusCode).toBe(401);
    expect((await send('GET', '/api/client/sessions', here)).statusCode).toBe(200);
    expect((await send('GET', '/api/client/sessions', bystander)).statusCode).toBe(200);
    const line = await t.deps.db
      .selectFrom('client_activity')
      .select('detail')
      .where('client_id', '=', client.id)
      .where('action', '=', 'two_factor_enabled')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(line.detail ?? '{}')).toEqual({ sessionsEnded: 1 });
  });

  it('ends an admin’s other sessions when they turn it on, and audits their own changes', async () => {
    const admin = await createAdminUser(t.deps);
    const here = await loginAdmin(t.app, admin.username, admin.password);
    const elsewhere = await loginAdmin(t.app, admin.username, admin.password);
    const other = await createAdminUser(t.deps);
    const otherCookie = await loginAdmin(t.app, other.username, other.password);
    const { recoveryCodes } = await enable('/api/admin/2fa', here);
    expect((await send('GET', '/api/admin/clients', elsewhere)).statusCode).toBe(401);
    expect((await send('GET', '/api/admin/clients', here)).statusCode).toBe(200);
    expect((await send('GET', '/api/admin/clients', otherCookie)).statusCode).toBe(200);

    const off = await send('POST', '/api/admin/2fa/disable', here, { code: recoveryCodes[0] });
    expect(off.statusCode, off.body).toBe(200);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('admin_id', '=', admin.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.detail ?? '{}')])).toEqual([
      ['admin.two_factor_enabled', { sessionsEnded: 1 }],
      ['admin.two_factor_disabled', { with: 'recovery code' }],
    ]);
  });

  it('writes a client user’s turning it off to the activity log, with what confirmed it', async () => {
    const client = await createClient(t.deps);
    const cookie = await loginClient(t.app, client.email);
    const { secret } = await enable('/api/client/2fa', cookie);
    const off = await send('POST', '/api/client/2fa/disable', cookie, { code: await codeFor(secret) });
    expect(off.statusCode, off.body).toBe(200);
    const lines = await t.deps.db
      .selectFrom('client_activity')
      .select(['action', 'detail'])
      .where('client_id', '=', client.id)
      .where('action', 'like', 'two_factor%')
      .execute();
    expect(lines.map((l) => [l.action, JSON.parse(l.detail ?? '{}')])).toContainEqual([
      'two_factor_disabled',
      { with: 'authenticator code' },
    ]);
  });
});
