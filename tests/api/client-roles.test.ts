/**
 * The role × route sweep: from Fastify's own route table, every route a client session
 * reaches declares a permission, and each role reaches exactly the routes its permissions allow.
 * A refusal is 403 naming the missing permission; the Owner (the old single login) is refused none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { type ClientRole, ROLE_PERMISSIONS } from '../../src/contract/teams';
import { createNotifications } from '../../src/server/notifications';
import { cookieHeader, createSignedInClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
const REFUSED = /Your role does not allow this|declares no permission/;
/** A live stream never ends: checked for refusal only. */
const STREAMS = new Set(['/api/client/events']);

function concreteUrl(pattern: string): string {
  const url = pattern.replace(/:\w+/g, 'some-id');
  return url.endsWith('/export') ? `${url}?format=csv` : url;
}

describe(`client roles × routes (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  const cookies = {} as Record<ClientRole, string>;

  beforeAll(async () => {
    smtp = await startSmtpSim();
    t = await createTestApp({ env: { SMTP_URL: smtp.smtpUrl } });
    const owner = await createSignedInClient(t);
    cookies.owner = owner.cookie;
    for (const role of ['manager', 'viewer'] as const) {
      const email = `${role}@roles.test`;
      const invited = await t.app.inject({
        method: 'POST',
        url: '/api/client/users',
        payload: { email, role },
        headers: { cookie: owner.cookie },
      });
      expect(invited.statusCode).toBe(201);
      await createNotifications(t.deps, () => {}).worker.runOnce();
      const mail = smtp.messages.find((m) => m.to.includes(email));
      const token = decodeURIComponent(/token=([\w%-]+)/.exec(mail?.text ?? '')?.[1] ?? '');
      const accepted = await t.app.inject({
        method: 'POST',
        url: '/api/client/invitations/accept',
        payload: { token, name: role, password: 'a long enough password' },
      });
      expect(accepted.statusCode).toBe(200);
      cookies[role] = cookieHeader(accepted.headers['set-cookie']);
    }
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const clientRoutes = () => t.app.routeTable.filter((r) => r.access === 'client');

  it('every route a client session reaches declares a permission', () => {
    const undeclared = clientRoutes()
      .filter((r) => !r.permission)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    expect(clientRoutes().length).toBeGreaterThanOrEqual(50);
  });

  it('each role reaches what its permissions allow and nothing else: 0 cells wrong', async () => {
    const wrong: string[] = [];
    let cells = 0;
    // Refusals first: the Owner's sweep may change what follows.
    for (const role of ['viewer', 'manager', 'owner'] as const) {
      for (const route of clientRoutes()) {
        const permission = route.permission ?? 'undeclared';
        const allowed = permission === 'signed_in' || ROLE_PERMISSIONS[role].includes(permission as never);
        if (allowed && STREAMS.has(route.url)) continue;
        const method = route.method as Method;
        const res = await t.app.inject({
          method,
          url: concreteUrl(route.url),
          payload: method === 'GET' || method === 'DELETE' ? undefined : {},
          headers: { cookie: cookies[role] },
        });
        cells++;
        const refused = res.statusCode === 403 && REFUSED.test(res.json().message);
        if (allowed === refused)
          wrong.push(`${role} ${method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 80)}`);
        if (refused && !res.json().message.includes(permission))
          wrong.push(`${role} ${route.url}: message names no permission`);
        // A signed-in user is never treated as signed out.
        if (res.statusCode === 401) wrong.push(`${role} ${method} ${route.url}: 401`);
      }
    }
    expect(wrong).toEqual([]);
    expect(cells).toBeGreaterThan(100);
  });

  it('the Viewer holds only calls.read; the Manager no billing, users, keys or secrets', () => {
    expect(ROLE_PERMISSIONS.viewer).toEqual(['calls.read']);
    for (const p of ['billing', 'users', 'keys', 'integrations', 'account'] as const)
      expect(ROLE_PERMISSIONS.manager).not.toContain(p);
  });
});
