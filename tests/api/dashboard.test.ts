/**
 * The dashboard's first screen in one read: GET /api/client/dashboard, the admin's
 * GET /api/admin/clients/{clientId}/dashboard and GET /api/demo/dashboard answer, part for part,
 * what the separate endpoints answer for the same filters; one client never reads another's; the
 * admin's only through the admin route; a query the log refuses is refused with the same 400; a
 * team member without `billing` gets no subscription (its endpoint answers 403).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientRole } from '../../src/contract/teams';
import { hashPassword } from '../../src/server/auth/passwords';
import type { ClientRow } from '../../src/server/db/schema';
import { storeCalls } from '../helpers/calls';
import {
  createAdminUser,
  createSignedInClient,
  createSubscription,
  loginAdmin,
  loginClient,
  TEST_PASSWORD,
} from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const NOW = Date.UTC(2026, 10, 20, 15, 30, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The first screen's queries as the browser sends them: the 7-day window, a custom range, a narrowed log. */
const WINDOW = `startDate=${new Date(NOW - 7 * DAY).toISOString()}&endDate=${new Date(NOW).toISOString()}`;
const QUERIES = [
  `dateRange=7d&${WINDOW}&pathway=all&status=completed&page=1&limit=10&interval=day`,
  'dateRange=30d&from=2026-11-01&to=2026-11-20&pathway=Sales&status=all&page=2&limit=3&interval=day',
  `dateRange=1d&startDate=${new Date(NOW - DAY).toISOString()}&endDate=${new Date(NOW).toISOString()}&pathway=all&status=failed&page=1&limit=10&interval=hour&sort=duration&order=asc`,
];

/** Every call of the last 30 days, one page. */
const ALL_30D = `dateRange=30d&startDate=${new Date(NOW - 30 * DAY).toISOString()}&endDate=${new Date(NOW).toISOString()}&status=all&limit=30`;

/** The separate endpoints' query for one part: the dashboard's query, as each read takes it. */
const analytics = (q: string) => q;
const attentionQuery = 'limit=5';
const liveQuery = 'status=active&limit=5&sort=created&order=desc';

describe(`dashboard first screen (${TEST_DB})`, () => {
  let t: TestApp;
  let client: ClientRow;
  let cookie: string;
  let other: ClientRow;
  let otherCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    ({ client, cookie } = await createSignedInClient(t));
    ({ client: other, cookie: otherCookie } = await createSignedInClient(t));
    await createSubscription(t.deps, client.id);
    const statuses = ['completed', 'completed', 'failed', 'active', 'completed', 'transferred'] as const;
    await storeCalls(
      t.deps,
      client,
      Array.from({ length: 24 }, (_, i) => ({
        status: statuses[i % statuses.length],
        durationSeconds: 30 + i * 7,
        pathway: i % 3 === 0 ? 'Support' : 'Sales',
        createdAt: NOW - i * 9 * HOUR,
        fromNumber: `+1555000${String(1000 + i)}`,
      })),
    );
    await storeCalls(t.deps, other, [{ createdAt: NOW - HOUR, pathway: 'Sales' }]);
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, cookieHeader?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookieHeader ? { cookie: cookieHeader } : {} });
  const json = async (url: string, cookieHeader?: string) => {
    const res = await get(url, cookieHeader);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  /** A person of `owner` with `role`, signed in: the Cookie header. */
  async function signedInUser(owner: ClientRow, role: ClientRole) {
    const email = `${role}-${randomUUID().slice(0, 8)}@dashboard.test`;
    await t.deps.db
      .insertInto('client_users')
      .values({
        id: randomUUID(),
        client_id: owner.id,
        email,
        name: `A ${role}`,
        password_hash: await hashPassword(TEST_PASSWORD),
        role,
        permissions: JSON.stringify([]),
        status: 'active',
        is_account_login: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    return loginClient(t.app, email);
  }

  it('the client dashboard equals the separate endpoints, part for part', async () => {
    for (const q of QUERIES) {
      const board = await json(`/api/client/dashboard?${q}`, cookie);
      expect(board.calls).toEqual(await json(`/api/client/calls?${q}`, cookie));
      expect(board.stats).toEqual(await json(`/api/client/stats?${analytics(q)}`, cookie));
      expect(board.callsOverTime).toEqual(await json(`/api/client/calls-over-time?${q}`, cookie));
      expect(board.outcomesSummary).toEqual(await json(`/api/client/outcomes/summary?${q}`, cookie));
      expect(board.outcomesOverTime).toEqual(await json(`/api/client/outcomes-over-time?${q}`, cookie));
      expect(board.attention).toEqual(await json(`/api/client/attention?${attentionQuery}`, cookie));
      expect(board.liveCalls).toEqual(await json(`/api/client/calls?${liveQuery}`, cookie));
      expect(board.preferences).toEqual(await json('/api/client/preferences', cookie));
      expect(board.sampleData).toEqual(await json('/api/client/sample-calls', cookie));
      expect(board.twoFactor).toEqual(await json('/api/client/2fa', cookie));
      expect(board.subscription).toEqual(await json('/api/client/subscription', cookie));
    }
    // Not an empty comparison: the first query's log and stats hold calls.
    const board = await json(`/api/client/dashboard?${QUERIES[0]}`, cookie);
    expect(board.calls.calls.length).toBeGreaterThan(0);
    expect(board.stats.totalCalls).toBeGreaterThan(0);
    expect(board.subscription.plan).toBeTruthy();
    expect(board.liveCalls.calls.length).toBeGreaterThan(0);
  });

  it('the attention list takes attentionLimit', async () => {
    const board = await json(`/api/client/dashboard?${QUERIES[0]}&attentionLimit=2`, cookie);
    expect(board.attention).toEqual(await json('/api/client/attention?limit=2', cookie));
  });

  it('one client never reads another’s dashboard; the admin’s only through the admin route', async () => {
    const mine = await json(`/api/client/dashboard?${QUERIES[1]}`, otherCookie);
    expect(mine.calls.calls.map((c: { id: string }) => c.id)).toEqual(
      (await json(`/api/client/calls?${QUERIES[1]}`, otherCookie)).calls.map((c: { id: string }) => c.id),
    );
    const theirIds = new Set(
      (await json(`/api/client/calls?${ALL_30D}`, cookie)).calls.map((c: { id: string }) => c.id),
    );
    expect(theirIds.size).toBeGreaterThan(0);
    const board = await json(`/api/client/dashboard?${ALL_30D}`, otherCookie);
    expect(board.calls.calls).toHaveLength(1);
    for (const call of [...board.calls.calls, ...board.attention.calls])
      expect(theirIds.has(call.id)).toBe(false);
    expect(board.stats.totalCalls).toBeLessThanOrEqual(1);

    // A client's session on the admin route: refused; nobody signed in: 401; the admin on the client route: 401.
    expect((await get(`/api/admin/clients/${client.id}/dashboard`, otherCookie)).statusCode).toBe(403);
    expect((await get(`/api/admin/clients/${client.id}/dashboard`)).statusCode).toBe(401);
    expect((await get('/api/client/dashboard')).statusCode).toBe(401);
    expect((await get('/api/client/dashboard', adminCookie)).statusCode).toBe(401);
    expect((await get('/api/admin/clients/no-such-client/dashboard', adminCookie)).statusCode).toBe(404);
  });

  it('the admin’s view of a client equals the admin’s separate endpoints, and is audited as they are', async () => {
    const id = encodeURIComponent(client.id);
    for (const q of QUERIES) {
      const board = await json(`/api/admin/clients/${id}/dashboard?${q}`, adminCookie);
      expect(board.calls).toEqual(await json(`/api/admin/client-calls/${id}?${q}`, adminCookie));
      expect(board.stats).toEqual(await json(`/api/admin/client-stats/${id}?${q}`, adminCookie));
      expect(board.callsOverTime).toEqual(
        await json(`/api/admin/client-calls-over-time/${id}?${q}`, adminCookie),
      );
      expect(board.outcomesSummary).toEqual(
        await json(`/api/admin/client-outcomes/${id}/summary?${q}`, adminCookie),
      );
      expect(board.outcomesOverTime).toEqual(
        await json(`/api/admin/client-outcomes/${id}/over-time?${q}`, adminCookie),
      );
      expect(board.attention).toEqual(
        await json(`/api/admin/client-attention/${id}?${attentionQuery}`, adminCookie),
      );
      expect(board.liveCalls).toEqual(await json(`/api/admin/client-calls/${id}?${liveQuery}`, adminCookie));
      expect(board.client).toEqual((await json(`/api/admin/client-data/${id}`, adminCookie)).client);
      expect(board.preferences).toEqual(await json('/api/admin/preferences', adminCookie));
      expect(board.users).toEqual(await json(`/api/admin/clients/${id}/users`, adminCookie));
    }
    const before = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    await json(`/api/admin/clients/${id}/dashboard?${QUERIES[0]}`, adminCookie);
    const after = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', client.id)
      .execute();
    const added = after.map((r) => r.action).slice(before.length);
    expect(added.length).toBeGreaterThanOrEqual(0);
    expect(after.map((r) => r.action)).toEqual(expect.arrayContaining(['client.read_calls', 'client.view']));
  });

  it('the demo’s first screen equals the demo’s endpoints', async () => {
    for (const q of [
      `dateRange=7d&${WINDOW}&pathway=all&status=completed&page=1&limit=10&interval=day`,
      'dateRange=1d&pathway=all&status=all&page=1&limit=10&interval=hour',
    ]) {
      const board = await json(`/api/demo/dashboard?${q}`);
      expect(board.calls).toEqual(await json(`/api/demo/calls?${q}`));
      expect(board.stats).toEqual(await json(`/api/demo/stats?${q}`));
      expect(board.stats.totalRevenue).toBe(board.stats.totalCost);
      expect(board.callsOverTime).toEqual(await json(`/api/demo/calls-over-time?${q}`));
      expect(board.outcomesSummary).toEqual(await json(`/api/demo/outcomes/summary?${q}`));
      expect(board.outcomesOverTime).toEqual(await json(`/api/demo/outcomes-over-time?${q}`));
      expect(board.attention).toEqual(await json(`/api/demo/attention?${attentionQuery}`));
      expect(board.liveCalls).toBeUndefined();
      expect(board.preferences).toBeUndefined();
    }
    expect((await json(`/api/demo/dashboard?${QUERIES[0]}`)).calls.calls.length).toBeGreaterThan(0);
  });

  it('a query a separate read refuses is a 400 with its message', async () => {
    for (const bad of [
      'status=bogus',
      'from=2026-11-01',
      'limit=0',
      'page=abc',
      'dateRange=2y',
      `startDate=${new Date(NOW).toISOString()}`,
      'dateRange=30d&interval=hour',
      'interval=week',
      'sort=colour',
    ]) {
      const res = await get(`/api/client/dashboard?${bad}`, cookie);
      expect(res.statusCode, bad).toBe(400);
      // The part's own endpoint refuses it too, with the same message.
      const own = await Promise.all([
        get(`/api/client/calls?${bad}`, cookie),
        get(`/api/client/calls-over-time?${bad}`, cookie),
      ]);
      const refused = own.filter((r) => r.statusCode === 400).map((r) => r.json().message);
      expect(refused.length, bad).toBeGreaterThan(0);
      expect(refused, bad).toContain(res.json().message);
    }
    const res = await get('/api/client/dashboard?attentionLimit=0', cookie);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('attentionLimit');
    expect((await get('/api/demo/dashboard?status=bogus')).statusCode).toBe(400);
    expect(
      (await get(`/api/admin/clients/${client.id}/dashboard?status=bogus`, adminCookie)).statusCode,
    ).toBe(400);
  });

  it('a viewer (calls.read, no billing) gets the calls parts without the subscription; masked as in the log', async () => {
    const viewer = await signedInUser(client, 'viewer');
    expect((await get('/api/client/subscription', viewer)).statusCode).toBe(403);
    const board = await json(`/api/client/dashboard?${QUERIES[0]}`, viewer);
    expect(board).not.toHaveProperty('subscription');
    expect(board.calls).toEqual(await json(`/api/client/calls?${QUERIES[0]}`, viewer));
    expect(board.liveCalls).toEqual(await json(`/api/client/calls?${liveQuery}`, viewer));
    expect(board.attention).toEqual(await json(`/api/client/attention?${attentionQuery}`, viewer));
    expect(board.twoFactor).toEqual(await json('/api/client/2fa', viewer));
  });

  it('GET /robots.txt answers a robots file, not the app’s HTML (SEO)', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^User-agent: \*\n/);
    expect(res.body).toContain('Disallow: /api/');
    expect(res.body).not.toContain('<html');
  });
});
