import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/contract/account';
import type { VoiceProvider } from '../../src/server/providers/voice/types';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

// Every key is good: what is tested is who may set it, not the provider's check.
const fakeVoice = { checkKey: async () => 'valid' } as unknown as VoiceProvider;

describe(`what a client is told about the voice platform (${TEST_DB})`, () => {
  let t: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    t = await createTestApp({ voice: fakeVoice });
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username, admin.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'GET' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });
  const rowOf = (id: string) =>
    t.deps.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('hides the platform and leaves the key to the agency by default: PUT api-key answers 403', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const session = (await send('GET', '/api/client/session', cookie)).json();
    expect(session.showPlatformDetails).toBe(false);
    expect(session.clientManagesApiKey).toBe(false);
    const config = (await send('GET', `/api/admin/client-config/${client.id}`, adminCookie)).json();
    expect(config.showPlatformDetails).toBe(false);
    expect(config.clientManagesApiKey).toBe(false);

    const refused = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: 'sk_client_key_0001' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: ACCOUNT_MESSAGES.apiKeyManagedByAgency });
    const row = await rowOf(client.id);
    expect(row.bland_api_key_enc).toBeNull();
    expect(row.api_key_status).toBe('missing');
  });

  it('lets the admin turn both on per client; the client then sees the flags and may change the key', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const other = await createSignedInClient(t);
    const saved = await send('PUT', `/api/admin/client-config/${client.id}`, adminCookie, {
      showPlatformDetails: true,
      clientManagesApiKey: true,
    });
    expect(saved.statusCode).toBe(200);
    const config = (await send('GET', `/api/admin/client-config/${client.id}`, adminCookie)).json();
    expect(config).toMatchObject({ showPlatformDetails: true, clientManagesApiKey: true });
    const session = (await send('GET', '/api/client/session', cookie)).json();
    expect(session).toMatchObject({ showPlatformDetails: true, clientManagesApiKey: true });

    const put = await send('PUT', '/api/client/api-key', cookie, { blandApiKey: 'sk_client_key_0002' });
    expect(put.statusCode).toBe(200);
    expect(t.deps.secrets.decrypt((await rowOf(client.id)).bland_api_key_enc!)).toBe('sk_client_key_0002');

    // Another client keeps the defaults.
    const untouched = (await send('GET', '/api/client/session', other.cookie)).json();
    expect(untouched).toMatchObject({ showPlatformDetails: false, clientManagesApiKey: false });
    expect(
      (await send('PUT', '/api/client/api-key', other.cookie, { blandApiKey: 'sk_x_key_0003' })).statusCode,
    ).toBe(403);

    // Turned off again, the key is the agency's once more.
    await send('PUT', `/api/admin/client-config/${client.id}`, adminCookie, { clientManagesApiKey: false });
    expect(
      (await send('PUT', '/api/client/api-key', cookie, { blandApiKey: 'sk_client_key_0004' })).statusCode,
    ).toBe(403);
    expect((await send('GET', '/api/client/session', cookie)).json().showPlatformDetails).toBe(true);
  });

  it('refuses a flag that is not a boolean with a 400 and changes nothing', async () => {
    const { client } = await createSignedInClient(t);
    for (const body of [
      { showPlatformDetails: 'yes' },
      { clientManagesApiKey: 1 },
      { showPlatformDetails: null },
    ]) {
      const res = await send('PUT', `/api/admin/client-config/${client.id}`, adminCookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const row = await rowOf(client.id);
    expect(row.show_platform_details).toBe(0);
    expect(row.client_manages_api_key).toBe(0);
  });
});
