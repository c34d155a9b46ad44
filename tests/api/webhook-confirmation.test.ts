/**
 * Without a signing secret, a webhook delivery is a notification. The call counts
 * only once the provider confirms it; the provider's data wins over what was posted; a call the
 * provider cannot confirm yet is kept out of the log and totals until a sync settles it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createCallsRepository } from '../../src/server/calls/write/calls-repository';
import { pruneUnconfirmedCalls } from '../../src/server/housekeeping';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { blandCallBody } from '../helpers/bland';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`webhook deliveries confirmed with the provider (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;

  beforeAll(async () => {
    sim = await startVoiceSim();
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url },
      voice: createBlandProvider({ baseUrl: sim.url, timeoutMs: 1_000, retryBaseMs: 10, maxRetries: 1 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  async function clientWithKey() {
    const apiKey = `key_${randomUUID().slice(0, 8)}`;
    sim.addKey(apiKey);
    const client = await createClient(t.deps, {
      bland_api_key_enc: t.deps.secrets.encrypt(apiKey),
      api_key_status: 'valid',
    });
    return { client, apiKey, cookie: await loginClient(t.app, client.email) };
  }
  const deliver = (token: string, body: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/webhooks/voice/${token}`, payload: body as object });
  const get = async (cookie: string, url: string) =>
    (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();

  it('a forged delivery of a call the provider never made changes no number', async () => {
    const { client, cookie } = await clientWithKey();
    const forged = await deliver(
      client.webhook_token,
      blandCallBody({ corrected_duration: '86000', price: 900 }),
    );
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toMatchObject({ received: true, verified: false });
    expect((await get(cookie, '/api/client/stats?dateRange=7d')).totalCost).toBe(0);
    expect((await get(cookie, '/api/client/calls?status=all')).pagination.total).toBe(0);
  });

  it("uses the provider's own data, not what was posted", async () => {
    const { client, apiKey, cookie } = await clientWithKey();
    const [real] = sim.addCalls(apiKey, {
      count: 1,
      spreadDays: 0,
      overrides: { status: 'completed', corrected_duration: '60' },
    });
    const tampered = blandCallBody({
      call_id: real.call_id,
      corrected_duration: '86000',
      status: 'completed',
    });
    expect((await deliver(client.webhook_token, tampered)).statusCode).toBe(200);
    const [call] = (await get(cookie, '/api/client/calls?status=all')).calls;
    expect(call.providerCallId).toBe(real.call_id);
    expect(call.duration).toBe(60);
  });

  it('a call the provider cannot confirm yet stays out until the next sync settles it', async () => {
    const { client, apiKey, cookie } = await clientWithKey();
    const [real] = sim.addCalls(apiKey, {
      count: 1,
      spreadDays: 0,
      overrides: { status: 'completed', corrected_duration: '120' },
    });
    sim.setMode('500');
    const res = await deliver(
      client.webhook_token,
      blandCallBody({ call_id: real.call_id, corrected_duration: '120' }),
    );
    sim.setMode('normal');
    expect(res.json()).toMatchObject({ verified: false });
    expect((await get(cookie, '/api/client/calls?status=all')).pagination.total).toBe(0);
    expect((await get(cookie, '/api/client/stats?dateRange=7d')).totalCalls).toBe(0);

    const synced = await t.app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } });
    expect(synced.statusCode).toBe(200);
    const page = await get(cookie, '/api/client/calls?status=all');
    expect(page.pagination.total).toBe(1);
    expect(page.calls[0].duration).toBe(120);
    expect((await get(cookie, '/api/client/stats?dateRange=7d')).totalCalls).toBe(1);
  });

  it('an unconfirmed delivery never overwrites a confirmed call', async () => {
    const { client, apiKey, cookie } = await clientWithKey();
    const [real] = sim.addCalls(apiKey, {
      count: 1,
      spreadDays: 0,
      overrides: { status: 'completed', corrected_duration: '45' },
    });
    await deliver(client.webhook_token, blandCallBody({ call_id: real.call_id }));
    sim.setMode('500');
    await deliver(
      client.webhook_token,
      blandCallBody({ call_id: real.call_id, corrected_duration: '86000' }),
    );
    sim.setMode('normal');
    const [call] = (await get(cookie, '/api/client/calls?status=all')).calls;
    expect(call.duration).toBe(45);
  });

  const rowsOf = (clientId: string) =>
    t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', clientId).execute();

  it('an unconfirmed delivery keeps neither transcript nor payload, and blocks nothing', async () => {
    const { client, cookie } = await clientWithKey();
    const line = { id: 1, created_at: new Date().toISOString(), text: 'x'.repeat(19_000), user: 'user' };
    const forged = blandCallBody({
      transcripts: Array.from({ length: 40 }, () => line),
      variables: { notes: 'n'.repeat(200_000) },
    });
    expect((await deliver(client.webhook_token, forged)).json()).toMatchObject({ verified: false });
    // Repeated, it still brings nothing to store.
    expect((await deliver(client.webhook_token, forged)).json()).toMatchObject({ verified: false });
    const [row] = await rowsOf(client.id);
    expect(row).toMatchObject({ verified: 0, transcript: null, raw_payload: null });
    // A forged call is not the client's first real call: sample data is still offered.
    const seeded = await t.app.inject({ method: 'POST', url: '/api/demo/seed', headers: { cookie } });
    expect(seeded.statusCode).toBe(200);
  });

  it('redacts a card read out on every path: the confirmed webhook, the sync, and an unconfirmed delivery’s kept body', async () => {
    const { client, apiKey, cookie } = await clientWithKey();
    const said = 'sure, my card is 4242 4242 4242 4242, expiry oh four twenty-seven';
    const lines = [{ id: 1, created_at: new Date().toISOString(), text: said, user: 'user' }];
    const [real, synced] = sim.addCalls(apiKey, {
      count: 2,
      spreadDays: 0,
      overrides: { status: 'completed', transcripts: lines, concatenated_transcript: said, summary: said },
    });
    const delivered = await deliver(
      client.webhook_token,
      blandCallBody({ call_id: real.call_id, transcripts: lines }),
    );
    expect(delivered.json()).toMatchObject({ kind: 'call', received: true });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } })).statusCode,
    ).toBe(200);
    // One the provider cannot confirm now: its body is kept for the log, redacted, without the
    // signature headers a changed body no longer matches.
    sim.setMode('500');
    const unconfirmed = await deliver(
      client.webhook_token,
      blandCallBody({ transcripts: lines, summary: said }),
    );
    sim.setMode('normal');
    expect(unconfirmed.json()).toMatchObject({ verified: false });

    const rows = await rowsOf(client.id);
    expect(rows.map((r) => r.provider_call_id)).toEqual(
      expect.arrayContaining([real.call_id, synced.call_id]),
    );
    const deliveries = await t.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    const everything = JSON.stringify([rows, deliveries]);
    // The card, not any "4242" a uuid or a millisecond timestamp holds by chance.
    expect(everything).not.toMatch(/4242\D{0,3}4242/);
    expect(everything).toMatch(/\[CARD\]/);
    const kept = deliveries.find((d) => d.raw_body !== null);
    expect(kept?.raw_body).toMatch(/my card is \[CARD\], expiry \[EXPIRY\]/);
    expect(kept?.signature_headers).toBeNull();
  });

  it('the next sync settles unconfirmed calls its list does not bring: confirmed ones count, never-made ones go', async () => {
    const { client, apiKey, cookie } = await clientWithKey();
    const [real] = sim.addCalls(apiKey, {
      count: 1,
      spreadDays: 0,
      overrides: { status: 'completed', corrected_duration: '75' },
    });
    sim.setMode('500');
    await deliver(client.webhook_token, blandCallBody({ call_id: real.call_id }));
    sim.setMode('normal');
    await deliver(client.webhook_token, blandCallBody({ corrected_duration: '3000' }));
    expect((await rowsOf(client.id)).map((r) => r.verified)).toEqual([0, 0]);
    // The watermark is past both calls, so the provider's list will not bring them.
    await t.deps.db
      .updateTable('clients')
      .set({ sync_watermark: t.deps.now() })
      .where('id', '=', client.id)
      .execute();
    // The forged one arrived long enough ago for "not found" to mean never made.
    const forged = (await rowsOf(client.id)).find((r) => r.provider_call_id !== real.call_id)!;
    await t.deps.db
      .updateTable('calls')
      .set({ updated_at: t.deps.now() - 2 * 60 * 60 * 1000 })
      .where('id', '=', forged.id)
      .execute();

    const synced = await t.app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } });
    expect(synced.statusCode).toBe(200);
    const rows = await rowsOf(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider_call_id: real.call_id, verified: 1, duration_seconds: 75 });
    const page = await get(cookie, '/api/client/calls?status=all');
    expect(page.pagination.total).toBe(1);
    expect((await get(cookie, '/api/client/stats?dateRange=7d')).totalCalls).toBe(1);
  });

  it('unconfirmed calls nobody settles are pruned after the retention', async () => {
    const { client } = await clientWithKey();
    await deliver(client.webhook_token, blandCallBody());
    const day = 24 * 60 * 60 * 1000;
    await t.deps.db
      .updateTable('calls')
      .set({ updated_at: t.deps.now() - 31 * day })
      .where('client_id', '=', client.id)
      .execute();
    expect(await pruneUnconfirmedCalls(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(client.id)).toHaveLength(0);
  });

  it('no call or pathway id can change a path at the provider', async () => {
    const { client, cookie } = await clientWithKey();
    const before = sim.state.stats.paths.length;
    for (const overrides of [
      { call_id: '..' },
      { call_id: '../calls' },
      { call_id: 'a/b' },
      { call_id: '%2e%2e' },
      { pathway_id: '..' },
      { pathway_id: '../v1/calls' },
    ]) {
      const res = await deliver(client.webhook_token, blandCallBody(overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message).toMatch(/letters, digits/);
    }
    // A call stored before ids were checked: its recording is not asked for either.
    const [legacy] = (
      await createCallsRepository(t.deps.db).upsertCalls({ id: client.id, per_minute_rate_cents: 10 }, [
        {
          providerCallId: '..',
          fromNumber: '+1555',
          toNumber: '+1666',
          durationSeconds: 10,
          status: 'completed',
          pathwayId: null,
          createdAt: Date.now() - 60_000,
          recordingUrl: 'https://recordings.example/x.mp3',
          transcript: null,
          isProxy: false,
          priceUsd: null,
          source: 'sync',
        },
      ])
    ).outcomes;
    expect(legacy).toBe('created');
    const [row] = await rowsOf(client.id);
    const recording = await t.app.inject({
      method: 'GET',
      url: `/api/client/recording/${row.id}`,
      headers: { cookie },
    });
    expect(recording.statusCode).toBe(404);
    expect(sim.state.stats.paths.slice(before)).toEqual([]);
  });

  it('a webhook body nested 5,000 deep answers 400 and the next delivery is stored', async () => {
    const { client } = await clientWithKey();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/voice/${client.webhook_token}`,
      headers: { 'content-type': 'application/json' },
      payload: `{"call_id":"abc","variables":${deep}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is nested too deeply (more than 64 levels)' });
    expect(await rowsOf(client.id)).toHaveLength(0);
    const next = await deliver(client.webhook_token, blandCallBody());
    expect(next.statusCode).toBe(200);
    expect(await rowsOf(client.id)).toHaveLength(1);
  });

  it("an unconfirmed delivery's pathway id costs no request with the client's key", async () => {
    const { client, apiKey } = await clientWithKey();
    const before = sim.state.stats.paths.length;
    const forged = await deliver(client.webhook_token, blandCallBody({ pathway_id: randomUUID() }));
    expect(forged.json()).toMatchObject({ verified: false });
    // A confirmed call after it: its look-up reaches the provider after any request the first
    // delivery would have started once answered.
    const [real] = sim.addCalls(apiKey, { count: 1, spreadDays: 0, overrides: { status: 'completed' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await deliver(client.webhook_token, blandCallBody({ call_id: real.call_id }))).statusCode).toBe(
      200,
    );
    const seen = sim.state.stats.paths.slice(before);
    expect(seen.some((p) => p.startsWith(`/v1/calls/${real.call_id}`))).toBe(true);
    expect(seen.filter((p) => p.startsWith('/v1/pathway'))).toEqual([]);
  });
});
