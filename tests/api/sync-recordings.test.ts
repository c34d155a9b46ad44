import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { createClientWithSimCalls } from '../helpers/bland';
import { countCallsOf } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { syncResult } from '../helpers/sync';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`sync and recordings against the Bland simulator (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let appUrl: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 1_000, retryBaseMs: 20, maxRetries: 2 }),
    });
    appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });
  beforeEach(() => sim.setMode('normal'));

  const clientWithKey = (calls = 0) => createClientWithSimCalls(t, sim, calls);
  const sync = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } });
  const countCalls = (clientId: string) => countCallsOf(t.deps.db, clientId);

  it('pages until a short page when the provider gives no total_count (as in Bland’s own example)', async () => {
    // 1,000 is a full page: with total_count absent, `count` (the page size) is no total.
    const { client, cookie } = await clientWithKey(1_203);
    expect(sim.state.listTotalCount).toBe(false);
    // A sync this long may answer 202 and finish in the background: followed to its result.
    expect(await syncResult(t.app, cookie)).toMatchObject({ success: true, created: 1_203 });
    expect(await countCalls(client.id)).toBe(1_203);
  }, 60_000);

  it('keeps a call whose details cannot be fetched before the watermark, says so, and fetches it next time', async () => {
    const { apiKey, client, cookie } = await clientWithKey(12);
    const calls = [...(sim.state.accounts.get(apiKey)?.calls ?? [])].sort(
      (a, b) => a.createdAtMs - b.createdAtMs,
    );
    // The oldest but two keeps answering 429 past the adapter's retries.
    const stubborn = calls[2].details.call_id;
    sim.state.failingDetails.set(stubborn, { status: 429, times: 1_000 });
    const first = (await sync(cookie)).json();
    expect(first).toMatchObject({ success: true, created: 12, unfetched: 1 });
    expect(first.message).toMatch(/did not send the details of 1 call; the next sync fetches them again/);
    const row = () =>
      t.deps.db
        .selectFrom('calls')
        .select(['transcript', 'summary'])
        .where('client_id', '=', client.id)
        .where('provider_call_id', '=', stubborn)
        .executeTakeFirstOrThrow();
    // Stored from the list, so the log shows it, but without what only the details carry.
    expect((await row()).transcript).toBeNull();
    const { sync_watermark } = await t.deps.db
      .selectFrom('clients')
      .select('sync_watermark')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(Number(sync_watermark)).toBeLessThanOrEqual(calls[2].createdAtMs);

    sim.state.failingDetails.clear();
    const second = (await sync(cookie)).json();
    expect(second).toMatchObject({ success: true, created: 0 });
    expect(second).not.toHaveProperty('unfetched');
    expect((await row()).transcript).not.toBeNull();
  });

  it('pulls calls with transcripts and pathway names, then only what is new', async () => {
    const { apiKey, client, cookie } = await clientWithKey(30);
    const first = await sync(cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, created: 30, updated: 0 });
    expect(first.json().message).toMatch(/from the call service/);

    const stored = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    expect(stored.every((c) => c.source === 'sync')).toBe(true);
    expect(stored.some((c) => c.transcript && JSON.parse(c.transcript).length > 0)).toBe(true);
    const withPathway = stored.filter((c) => c.pathway_id);
    expect(withPathway.length).toBeGreaterThan(0);
    expect(withPathway.every((c) => c.pathway !== c.pathway_id)).toBe(true); // names resolved

    expect((await sync(cookie)).json()).toMatchObject({ created: 0, updated: 0 });
    sim.addCalls(apiKey, { count: 2, createdAt: Date.now() - 1000 });
    expect((await sync(cookie)).json()).toMatchObject({ created: 2 });
    expect(await countCalls(client.id)).toBe(32);
  });

  it('a call the client deleted stays deleted through later syncs', async () => {
    const { client, cookie } = await clientWithKey(3);
    await sync(cookie);
    const [first] = (
      await t.app.inject({ method: 'GET', url: '/api/client/calls', headers: { cookie } })
    ).json().calls;
    await t.app.inject({ method: 'DELETE', url: `/api/client/calls/${first.id}`, headers: { cookie } });
    await t.deps.db
      .updateTable('clients')
      .set({ sync_watermark: null })
      .where('id', '=', client.id)
      .execute(); // full re-sync
    expect((await sync(cookie)).json()).toMatchObject({ created: 0 });
    expect(await countCalls(client.id)).toBe(2);
  });

  it('picks up the ending of a call that was still in progress at the last sync', async () => {
    const { apiKey, client, cookie } = await clientWithKey();
    const [live] = sim.addCalls(apiKey, {
      count: 1,
      createdAt: Date.now() - 60_000,
      overrides: { completed: false, queue_status: 'started', status: 'started', transferred_to: null },
    });
    await sync(cookie);
    sim.addCalls(apiKey, { count: 1, createdAt: Date.now() - 1000 });
    await sync(cookie);
    sim.updateCall(live.call_id, {
      completed: true,
      queue_status: 'complete',
      status: 'completed',
      corrected_duration: '61',
      call_length: 1.02,
    });
    await sync(cookie);
    const row = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('provider_call_id', '=', live.call_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_id: client.id, status: 'completed', duration_seconds: 61 });
  });

  it('two syncs of one client at once: one runs, the other is refused at once (409), every call stored once', async () => {
    const { client, cookie } = await clientWithKey(40);
    const [a, b] = await Promise.all([sync(cookie), sync(cookie)]);
    const [ran, refused] = a.statusCode === 200 ? [a, b] : [b, a];
    expect([ran.statusCode, refused.statusCode]).toEqual([200, 409]);
    expect(refused.json().message).toMatch(/^A sync of this account is already running/);
    expect(ran.json().created).toBe(40);
    expect(await countCalls(client.id)).toBe(40);
  });

  it('a webhook delivery and a sync of the same call converge on one row', async () => {
    const { apiKey, client, cookie } = await clientWithKey();
    const answer = await sim.placeTestCall({
      webhookUrl: `${appUrl}/api/webhooks/voice/${client.webhook_token}`,
      apiKey,
    });
    expect(answer.status).toBe(200);
    expect(await countCalls(client.id)).toBe(1);
    expect((await sync(cookie)).json()).toMatchObject({ created: 0 });
    expect(await countCalls(client.id)).toBe(1);
  });

  it('a rejected key answers 400, marks the key invalid and keeps stored calls', async () => {
    const { client, cookie } = await clientWithKey(3);
    await sync(cookie);
    await t.deps.db
      .updateTable('clients')
      .set({ bland_api_key_enc: t.deps.secrets.encrypt('revoked-key') })
      .where('id', '=', client.id)
      .execute();
    const res = await sync(cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/rejected the API key/);
    const row = await t.deps.db
      .selectFrom('clients')
      .select('api_key_status')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.api_key_status).toBe('invalid');
    expect(await countCalls(client.id)).toBe(3);
  });

  it('provider errors answer 502 and change nothing; a passing 429 is retried', async () => {
    const { client, cookie } = await clientWithKey(5);
    sim.setMode('500');
    const failed = await sync(cookie);
    expect(failed.statusCode).toBe(502);
    expect(typeof failed.json().message).toBe('string');
    expect(await countCalls(client.id)).toBe(0);

    sim.setMode('429', { times: 1, retryAfterSeconds: 0 });
    const retried = await sync(cookie);
    expect(retried.statusCode).toBe(200);
    expect(await countCalls(client.id)).toBe(5);
  });

  it('a provider that does not answer in time is a 502, not a hang', async () => {
    const { cookie } = await clientWithKey(1);
    sim.setMode('slow', { slowMs: 5_000 });
    const res = await sync(cookie);
    expect(res.statusCode).toBe(502);
  });

  it('without an API key sync says so', async () => {
    const client = await createClient(t.deps);
    const res = await sync(await loginClient(t.app, client.email));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/API key/);
  });

  describe('recordings', () => {
    async function clientWithRecordedCall() {
      const ctx = await clientWithKey(1);
      await sync(ctx.cookie);
      const call = await t.deps.db
        .selectFrom('calls')
        .selectAll()
        .where('client_id', '=', ctx.client.id)
        .executeTakeFirstOrThrow();
      return { ...ctx, call };
    }

    it('streams MP3 audio for playback, with Range for seeking', async () => {
      const { call, cookie } = await clientWithRecordedCall();
      const full = await t.app.inject({
        method: 'GET',
        url: `/api/client/recording/${call.id}`,
        headers: { cookie },
      });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('audio/mpeg');
      expect(full.rawPayload.length).toBeGreaterThan(1000);
      expect(full.rawPayload.subarray(0, 3).toString('latin1') === 'ID3' || full.rawPayload[0] === 0xff).toBe(
        true,
      );

      const part = await t.app.inject({
        method: 'GET',
        url: `/api/client/recording/${call.id}`,
        headers: { cookie, range: 'bytes=0-99' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
      expect(part.rawPayload.length).toBe(100);
    });

    it('downloads as recording-{id}.mp3', async () => {
      const { call, cookie } = await clientWithRecordedCall();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/recording/${call.id}`,
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="recording-${call.id}.mp3"`);
    });

    it('never serves another client’s recording', async () => {
      const { call } = await clientWithRecordedCall();
      const other = await createClient(t.deps);
      const cookie = await loginClient(t.app, other.email);
      for (const url of [`/api/client/recording/${call.id}`, `/api/recording/${call.id}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode, url).toBe(404);
      }
      expect((await t.app.inject({ method: 'GET', url: `/api/recording/${call.id}` })).statusCode).toBe(401);
    });

    it('says so when the provider’s recording has expired', async () => {
      const { call, cookie } = await clientWithRecordedCall();
      sim.expireRecording(call.provider_call_id);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/client/recording/${call.id}`,
        headers: { cookie },
      });
      expect(res.statusCode).toBe(410);
      // The client is not shown its platform: the message does not name it.
      expect(res.json().message).toBe('This recording has expired at the call service');
    });

    it('admins reach a client’s recording through the admin path, which checks the client id', async () => {
      const { call, client } = await clientWithRecordedCall();
      const admin = await createAdminUser(t.deps);
      const cookie = await loginAdmin(t.app, admin.username);
      const ok = await t.app.inject({
        method: 'GET',
        url: `/api/admin/client-recording/${client.id}/${call.id}`,
        headers: { cookie },
      });
      expect(ok.statusCode).toBe(200);
      const other = await createClient(t.deps);
      const wrong = await t.app.inject({
        method: 'GET',
        url: `/api/admin/client-recording/${other.id}/${call.id}`,
        headers: { cookie },
      });
      expect(wrong.statusCode).toBe(404);
    });
  });
});
