/**
 * An admin reading a client's data leaves a trace (point 6): the call log, a call with
 * its transcript, an export of one client or of every client, and a change of the client's
 * outcomes. Repeated reads fold into one row per admin, client, action and half hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../src/contract/agency';
import { READ_AUDIT_QUIET_MS } from '../../src/server/activity/record';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`admin reads are audited (${TEST_DB})`, () => {
  let t: TestApp;
  let clock = Date.UTC(2026, 10, 2, 12);
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
  const auditOf = async (clientId: string) => {
    const res = await get(`/api/admin/audit?clientId=${clientId}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as AuditPage).items;
  };

  it('records the call log and each call opened, folded per half hour', async () => {
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [{ createdAt: clock - 60_000 }, { createdAt: clock - 120_000 }]);
    const ids = (
      await t.deps.db
        .selectFrom('calls')
        .select('id')
        .where('client_id', '=', client.id)
        .orderBy('id')
        .execute()
    ).map((c) => c.id);
    for (let n = 0; n < 3; n++)
      expect((await get(`/api/admin/client-calls/${client.id}`)).statusCode).toBe(200);
    for (const id of [...ids, ids[0]])
      expect((await get(`/api/admin/client-calls/${client.id}/${id}`)).statusCode).toBe(200);

    const rows = await auditOf(client.id);
    const log = rows.filter((r) => r.action === 'client.read_calls');
    const opened = rows.filter((r) => r.action === 'call.read');
    expect(log).toHaveLength(1);
    expect(log[0]?.detail).toMatchObject({ reads: 3 });
    expect(opened).toHaveLength(1);
    expect(opened[0]?.detail).toMatchObject({ reads: 3, callIds: ids });

    // Half an hour later the next read is a row of its own.
    clock += READ_AUDIT_QUIET_MS + 1;
    await get(`/api/admin/client-calls/${client.id}`);
    expect((await auditOf(client.id)).filter((r) => r.action === 'client.read_calls')).toHaveLength(2);
  });

  it('records every export, one client or all, and a change of outcomes', async () => {
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [{ createdAt: clock - 60_000 }]);
    expect((await get(`/api/admin/clients/${client.id}/calls/export?format=csv`)).statusCode).toBe(200);
    expect((await get('/api/admin/calls/export?format=csv')).statusCode).toBe(200);
    const outcomes = await get(`/api/admin/client-outcomes/${client.id}`);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/client-outcomes/${client.id}`,
      headers: { cookie: admin },
      payload: { outcomes: outcomes.json().outcomes },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const actions = (await auditOf(client.id)).map((r) => r.action);
    expect(actions).toContain('client.export');
    expect(actions).toContain('client.outcomes');
    const all = await get('/api/admin/audit?action=clients.export');
    expect((all.json() as AuditPage).items).toHaveLength(1);
  });
});
