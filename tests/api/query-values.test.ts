/**
 * A query parameter means one thing everywhere. An unknown value is a 400 naming the
 * parameter (`{message, fields}`), never quietly read as a default; left out, the default holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`unknown query values (${TEST_DB})`, () => {
  let t: TestApp;
  let clientCookie: string;
  let adminCookie: string;
  let clientId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const client = await createClient(t.deps);
    clientId = client.id;
    clientCookie = await loginClient(t.app, client.email);
    const admin = await createAdminUser(t.deps, 'values');
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, cookie: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  /** Every route that takes a dateRange, with who may ask. */
  const dateRangeRoutes = () => [
    { url: '/api/client/stats', cookie: clientCookie },
    { url: '/api/client/calls-over-time', cookie: clientCookie },
    { url: '/api/client/calls', cookie: clientCookie },
    { url: '/api/client/outcomes/summary', cookie: clientCookie },
    { url: '/api/client/outcomes-over-time', cookie: clientCookie },
    { url: `/api/admin/client-stats/${clientId}`, cookie: adminCookie },
    { url: `/api/admin/client-calls-over-time/${clientId}`, cookie: adminCookie },
    { url: `/api/admin/client-calls/${clientId}`, cookie: adminCookie },
    { url: '/api/admin/analytics', cookie: adminCookie },
    { url: '/api/demo/stats', cookie: '' },
    { url: '/api/demo/calls-over-time', cookie: '' },
  ];

  it('refuses an unknown dateRange with 400 naming it, on every route that takes one', async () => {
    for (const { url, cookie } of dateRangeRoutes()) {
      for (const value of ['9y', '5d', 'forever', '']) {
        const res = await get(`${url}?dateRange=${value}`, cookie);
        expect(res.statusCode, `${url}?dateRange=${value}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), `${url}?dateRange=${value}`).toEqual(['dateRange']);
        expect(res.json().message).toMatch(/^dateRange: /);
      }
    }
  });

  it('takes the ranges it offers, and a missing dateRange still means the default', async () => {
    for (const { url, cookie } of dateRangeRoutes()) {
      for (const query of ['', '?dateRange=30d']) {
        const res = await get(`${url}${query}`, cookie);
        expect(res.statusCode, `${url}${query}: ${res.body}`).toBe(200);
      }
    }
  });

  it('refuses unknown sorts, orders, pages, statuses and flags with 400 naming the parameter', async () => {
    const cases: [string, string, string][] = [
      ['/api/client/calls?sort=loudest', clientCookie, 'sort'],
      ['/api/client/calls?order=up', clientCookie, 'order'],
      ['/api/client/calls?page=abc', clientCookie, 'page'],
      ['/api/client/calls?page=0', clientCookie, 'page'],
      ['/api/client/calls?limit=1000', clientCookie, 'limit'],
      ['/api/client/calls?status=weird', clientCookie, 'status'],
      ['/api/client/calls?attention=yes', clientCookie, 'attention'],
      ['/api/client/calls-over-time?interval=minute', clientCookie, 'interval'],
      ['/api/client/calls/export?format=pdf', clientCookie, 'format'],
      ['/api/admin/analytics?sort=height', adminCookie, 'sort'],
      ['/api/admin/analytics?order=sideways', adminCookie, 'order'],
      ['/api/admin/analytics?page=two', adminCookie, 'page'],
      ['/api/admin/audit?action=client.explode', adminCookie, 'action'],
      ['/api/admin/audit?page=-1', adminCookie, 'page'],
      ['/api/demo/calls?status=weird', '', 'status'],
      ['/api/demo/recording/any?download=0x', '', 'download'],
      ['/api/client/events?lastEventId=soon', clientCookie, 'lastEventId'],
      [`/api/admin/clients/${clientId}/events?lastEventId=-3`, adminCookie, 'lastEventId'],
    ];
    for (const [url, cookie, parameter] of cases) {
      const res = await get(url, cookie);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), url).toContain(parameter);
    }
  });
});
