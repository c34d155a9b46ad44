/**
 * What the API answers a client names no voice platform unless the agency shows it the platform
 * (`showPlatformDetails`): the sync's result and its run, a refused key, a sync without a key. The
 * agency's own sync of the same client names it. The browser crawl is platform-details.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { createClientWithSimCalls } from '../helpers/bland';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { followSyncRun, postSync, syncResult } from '../helpers/sync';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const PLATFORM_WORDS = /Bland|Vapi|Retell|pathway/i;

describe(`the platform's name in what a client is answered (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let adminCookie: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 5_000, retryBaseMs: 5, maxRetries: 0 }),
    });
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const showPlatform = (clientId: string, on: boolean) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/admin/client-config/${clientId}`,
      payload: { showPlatformDetails: on },
      headers: { cookie: adminCookie },
    });
  const adminSync = (clientId: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/clients/${clientId}/sync`,
      headers: { cookie: adminCookie },
    });

  it('says "Synced N calls" without the platform, on the answer and on the run followed', async () => {
    const { client, cookie } = await createClientWithSimCalls(t, sim, 3);
    const result = await syncResult(t.app, cookie);
    expect(result.message).toBe('Synced 3 calls from the call service (3 new, 0 updated)');

    const again = await postSync(t.app, cookie);
    const runId = again.statusCode === 202 ? again.json().runId : null;
    if (runId) expect((await followSyncRun(t.app, cookie, runId)).result.message).not.toMatch(PLATFORM_WORDS);
    else expect(again.json().message).toBe('No new calls from the call service');

    // The agency's sync of the same client names its supplier.
    const byAdmin = await adminSync(client.id);
    expect([200, 202]).toContain(byAdmin.statusCode);
    if (byAdmin.statusCode === 200) expect(byAdmin.json().message).toBe('No new calls from Bland AI');
  });

  it('names the platform to a client the agency shows it', async () => {
    const { client, cookie } = await createClientWithSimCalls(t, sim, 2);
    expect((await showPlatform(client.id, true)).statusCode).toBe(200);
    expect((await syncResult(t.app, cookie)).message).toBe('Synced 2 calls from Bland AI (2 new, 0 updated)');
  });

  it('refuses a revoked key and a missing key without naming the platform', async () => {
    // A key the platform does not know: the stand-in refuses it.
    const { client, cookie } = await createSignedInClient(t, {
      bland_api_key_enc: t.deps.secrets.encrypt('revoked-key'),
      api_key_status: 'valid',
    });
    const refused = await postSync(t.app, cookie);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'The call service rejected the API key. Update the key and try again.',
    );
    await showPlatform(client.id, true);
    const named = await postSync(t.app, cookie);
    expect(named.json().message).toBe('Bland AI rejected the API key. Update the key and try again.');

    const keyless = await createSignedInClient(t);
    const noKey = await postSync(t.app, keyless.cookie);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().message).toBe(
      'No API key is connected yet: your agency connects it, then sync again',
    );
    expect(noKey.json().message).not.toMatch(PLATFORM_WORDS);
  });
});
