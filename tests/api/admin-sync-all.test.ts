/** Sync-all against the voice simulator: every active client with a key, one revoked key failing alone. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`admin sync-all (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({ env: { BLAND_API_URL: sim.url } });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const sealed = (key: string) => t.deps.secrets.encrypt(key);
  const callCount = async (clientId: string) =>
    (await t.deps.db.selectFrom('calls').select('id').where('client_id', '=', clientId).execute()).length;

  it('syncs every active client, names the one whose key fails, and skips clients without a key', async () => {
    sim.addCalls('sim_alpha_key', { count: 5, spreadDays: 3 });
    sim.addCalls('sim_beta_key', { count: 3, spreadDays: 3 });
    sim.addCalls('sim_inactive_key', { count: 2, spreadDays: 3 });
    const alpha = await createClient(t.deps, {
      email: 'alpha@example.com',
      company_name: 'Alpha',
      bland_api_key_enc: sealed('sim_alpha_key'),
      api_key_status: 'valid',
    });
    const revoked = await createClient(t.deps, {
      email: 'revoked@example.com',
      company_name: 'Revoked Inc',
      bland_api_key_enc: sealed('sim_revoked_key'),
      api_key_status: 'valid',
    });
    const beta = await createClient(t.deps, {
      email: 'beta@example.com',
      company_name: 'Beta',
      bland_api_key_enc: sealed('sim_beta_key'),
      api_key_status: 'valid',
    });
    await createClient(t.deps, { email: 'nokey@example.com' });
    const inactive = await createClient(t.deps, {
      email: 'inactive@example.com',
      is_active: 0,
      bland_api_key_enc: sealed('sim_inactive_key'),
    });
    const draft = await createClient(t.deps, {
      email: 'draft@example.com',
      onboarding_status: 'pending',
      bland_api_key_enc: sealed('sim_inactive_key'),
    });

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sync-all-clients',
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: false, synced: 2, failed: 1, skipped: 1, created: 8, updated: 0 });
    expect(body.failures).toEqual([
      { clientId: revoked.id, name: 'Revoked Inc', message: expect.stringMatching(/rejected the API key/) },
    ]);
    expect(body.message).toMatch(
      /^Synced 2 clients, 1 failed \(Revoked Inc: .*rejected the API key.*\), 1 without an API key skipped\.$/,
    );
    expect(JSON.stringify(body)).not.toMatch(/sim_\w+_key/);

    expect(await callCount(alpha.id)).toBe(5);
    expect(await callCount(beta.id)).toBe(3);
    expect(await callCount(inactive.id)).toBe(0);
    expect(await callCount(draft.id)).toBe(0);
    const after = await t.deps.db
      .selectFrom('clients')
      .select('api_key_status')
      .where('id', '=', revoked.id)
      .executeTakeFirstOrThrow();
    expect(after.api_key_status).toBe('invalid');

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'clients.sync_all')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!)).toEqual({ synced: 2, failed: 1, skipped: 1, created: 8 });

    // The list and stats see the synced calls.
    const stats = (
      await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie: admin } })
    ).json();
    expect(stats.totalCalls).toBe(8);
  });

  it('reports success when every client syncs, and a second run finds nothing new', async () => {
    await t.deps.db
      .updateTable('clients')
      .set({ is_active: 0 })
      .where('email', '=', 'revoked@example.com')
      .execute();
    const res = (
      await t.app.inject({ method: 'POST', url: '/api/admin/sync-all-clients', headers: { cookie: admin } })
    ).json();
    expect(res).toMatchObject({ success: true, synced: 2, failed: 0, created: 0, failures: [] });
  });

  it('survives the provider being down for everyone, reporting each client', async () => {
    sim.setMode('500');
    try {
      const res = (
        await t.app.inject({ method: 'POST', url: '/api/admin/sync-all-clients', headers: { cookie: admin } })
      ).json();
      expect(res).toMatchObject({ success: false, synced: 0, failed: 2 });
      expect(res.failures.map((f: { name: string }) => f.name).sort()).toEqual(['Alpha', 'Beta']);
    } finally {
      sim.setMode('normal');
    }
  }, 60_000);
});
