/** Every /api/admin/* endpoint refuses anonymous (401) and client (403) sessions, and changes nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Path parameters filled in: client ids with the target client, anything else with a plausible id. */
function concreteUrl(pattern: string, clientId: string): string {
  // The all-clients export names no client; every export needs its format to pass validation.
  if (pattern === '/api/admin/calls/export') return `${pattern}?format=csv`;
  if (pattern.startsWith('/api/admin/calls/'))
    return `${pattern.replace(':id', 'some-call')}?clientId=${clientId}`;
  const url = pattern
    .replace(/:(id|clientId)\b/g, clientId)
    .replace(/:runId\b/g, '00000000-0000-4000-8000-00000000a11d')
    .replace(/:\w+/g, 'some-call');
  return url.endsWith('/export') ? `${url}?format=csv` : url;
}

/** A body that would pass validation for the write endpoints, so only the guard can refuse it. */
function bodyFor(method: string, url: string): object | undefined {
  if (method === 'GET' || method === 'DELETE') return undefined;
  // Privacy settings take only their own fields (a patch of at least one).
  if (url.includes('/client-privacy/') || url.endsWith('/privacy-defaults'))
    return { redaction: { dates: true } };
  // Erasure and a caller's export take the caller's number alone.
  if (url.includes('/client-erasure/') || url.includes('/client-subject-export/'))
    return { phone: '+14155550123' };
  // Quality thresholds take only their own fields.
  if (url.includes('/client-quality/')) return { deadAirMs: 6000 };
  return {
    email: 'new@example.com',
    firstName: 'N',
    lastName: 'C',
    secret: null,
    outcomes: [],
    phoneNumber: '+14155550123',
    username: 'new-admin',
    name: 'New Admin',
  };
}

describe(`admin access control (${TEST_DB})`, () => {
  let t: TestApp;
  let clientCookie: string;
  let adminCookie: string;
  let targetId: string;
  let routes: [Method, string, object?][];

  beforeAll(async () => {
    t = await createTestApp();
    const client = await createClient(t.deps, { email: 'viewer@example.com' });
    const target = await createClient(t.deps, { email: 'target@example.com' });
    targetId = target.id;
    clientCookie = await loginClient(t.app, client.email);
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
    // From Fastify's own route table: a route added under /api/admin/ is checked here unasked.
    routes = t.app.routeTable
      .filter((route) => route.access === 'admin')
      .map(({ method, url }) => [method as Method, concreteUrl(url, targetId), bodyFor(method, url)]);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: Method, url: string, payload?: object, cookie?: string) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

  it('covers every admin route of the route table', () => {
    const urls = routes.map(([method, url]) => `${method} ${url.replace(targetId, ':id')}`);
    expect(urls).toContain('PUT /api/admin/client-config/:id');
    expect(urls).toContain('DELETE /api/admin/clients/:id');
    expect(routes.length).toBeGreaterThanOrEqual(16);
    // Sign-in endpoints are public even under the prefix; nothing else is.
    expect(urls.some((url) => url.includes('/login'))).toBe(false);
  });

  it('answers 401 without a session', async () => {
    for (const [method, url, payload] of routes) {
      const res = await send(method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json(), `${method} ${url}`).toEqual({ message: 'Unauthorized' });
    }
  });

  it('answers 403 to a logged-in client', async () => {
    for (const [method, url, payload] of routes) {
      const res = await send(method, url, payload, clientCookie);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(typeof res.json().message, `${method} ${url}`).toBe('string');
    }
  });

  it('changed nothing while refusing', async () => {
    const target = await t.deps.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', targetId)
      .executeTakeFirstOrThrow();
    expect(target.email).toBe('target@example.com');
    expect(target.password_hash).not.toBeNull();
    const drafts = await t.deps.db
      .selectFrom('clients')
      .select('id')
      .where('email', '=', 'new@example.com')
      .execute();
    expect(drafts).toEqual([]);
    const audit = await t.deps.db.selectFrom('audit_log').select('id').execute();
    expect(audit).toEqual([]);
  });

  it('answers 404 "Client not found" for an unknown client id, with an admin session', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const perClient = routes
      .filter(([, url]) => url.includes(targetId) && !url.includes('client-recording'))
      .map(([method, url, payload]) => [method, url.replace(targetId, unknown), payload] as const);
    expect(perClient.length).toBeGreaterThanOrEqual(11);
    for (const [method, url, payload] of perClient) {
      const res = await send(method, url, payload, adminCookie);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({ message: 'Client not found' });
    }
  });
});
