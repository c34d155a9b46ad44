/**
 * Far-past and far-future dates in any date query answer 400 with a clear message,
 * on every route that takes dates (client, admin, public demo), from the one shared schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

/** Each parses in JavaScript; "-10000-01-01" even reads as the year 10000. */
const OUT_OF_RANGE = [
  '-271821-04-20',
  '-100000-01-01',
  '-10000-01-01',
  '+275760-09-13',
  '1999-12-31',
  '2101-01-01',
];

describe(`query dates (${TEST_DB})`, () => {
  let t: TestApp;
  let clientCookie: string;
  let adminCookie: string;
  let clientId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const client = await createClient(t.deps);
    clientId = client.id;
    clientCookie = await loginClient(t.app, client.email);
    const admin = await createAdminUser(t.deps, 'dates');
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const routes = () => [
    { url: '/api/client/calls', cookie: clientCookie },
    { url: `/api/admin/client-calls/${clientId}`, cookie: adminCookie },
    { url: '/api/demo/calls', cookie: '' },
  ];

  it('refuses dates outside the years 2000 to 2100 with 400, on every route that takes dates', async () => {
    for (const { url, cookie } of routes()) {
      for (const date of OUT_OF_RANGE) {
        for (const field of ['startDate', 'endDate']) {
          const res = await t.app.inject({
            method: 'GET',
            url: `${url}?${field}=${encodeURIComponent(date)}`,
            headers: cookie ? { cookie } : {},
          });
          expect(res.statusCode, `${url} ${field}=${date}`).toBe(400);
          expect(res.json().message).toBe(`${field}: Dates must be between the years 2000 and 2100`);
        }
      }
    }
  });

  it('takes dates inside the range, as days or moments', async () => {
    for (const { url, cookie } of routes()) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${url}?startDate=2000-01-01&endDate=${encodeURIComponent('2100-12-31T23:59:59.999Z')}`,
        headers: cookie ? { cookie } : {},
      });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
