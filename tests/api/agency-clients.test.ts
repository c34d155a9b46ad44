/**
 * One definition of "the agency's clients" (onboarded ones: neither the demo tenant
 * nor a wizard draft) behind every admin list, total and the all-clients export.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyClientIds } from '../../src/server/clients/clients-repository';
import type { ClientRow } from '../../src/server/db/schema';
import { DEMO_CLIENT_ID } from '../../src/server/demo/demo-data';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const NOW = Date.UTC(2026, 2, 20, 12);
const HOUR = 60 * 60 * 1000;

describe(`the agency's clients (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let agency: ClientRow;
  let paused: ClientRow;
  let demo: ClientRow;
  let draft: ClientRow;

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
    agency = await createClient(t.deps, { company_name: 'Agency Client', password: null });
    // Deactivated is still the agency's client: listed and counted, only not synced or billed.
    paused = await createClient(t.deps, { company_name: 'Paused Client', is_active: 0, password: null });
    demo = await createClient(t.deps, {
      id: DEMO_CLIENT_ID,
      company_name: 'Demo Company',
      email: 'demo@demo.invalid',
      onboarding_status: 'demo',
      password: null,
    });
    draft = await createClient(t.deps, {
      company_name: 'Draft Client',
      onboarding_status: 'pending',
      password: null,
    });
    const calls = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        providerCallId: `${prefix}-${i}`,
        createdAt: NOW - (i + 1) * HOUR,
      }));
    await storeCalls(t.deps, agency, calls(2, 'agency'));
    await storeCalls(t.deps, paused, calls(1, 'paused'));
    await storeCalls(t.deps, demo, calls(5, 'demo'));
    await storeCalls(t.deps, draft, calls(3, 'draft'));
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: admin } });

  it('is defined once: onboarded clients, active or not, never the demo tenant or a draft', async () => {
    const ids = (await agencyClientIds(t.deps.db).execute()).map((r) => r.id).sort();
    expect(ids).toEqual([agency.id, paused.id].sort());
  });

  it('lists and counts only them in the client list and the admin stats', async () => {
    const list = (await get('/api/admin/clients')).json() as { id: string }[];
    expect(list.map((c) => c.id).sort()).toEqual([agency.id, paused.id].sort());
    expect((await get('/api/admin/stats')).json()).toMatchObject({
      totalClients: 2,
      activeClients: 1,
      totalCalls: 3,
    });
  });

  it("sums only them in the portfolio's totals and table", async () => {
    const res = await get('/api/admin/analytics?dateRange=7d');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.totals.calls).toBe(3);
    expect(body.clients.map((c: { clientId: string }) => c.clientId).sort()).toEqual(
      [agency.id, paused.id].sort(),
    );
  });

  it("exports only their calls from the all-clients export, never the demo's or a draft's", async () => {
    const res = await get('/api/admin/calls/export?format=csv&status=all');
    expect(res.statusCode).toBe(200);
    const rows: Record<string, string>[] = parse(res.rawPayload, { bom: true, columns: true });
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.Client))).toEqual(new Set(['Agency Client', 'Paused Client']));
  });
});
