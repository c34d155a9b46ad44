/**
 * Callers' personal data, through the real app on the test database: redaction on
 * arrival in every stored copy (the call, its search entry, its stored payload, the delivery log's
 * kept body), re-redaction when a category is turned on, retention that keeps the totals, erasure
 * by caller at the Vapi and Retell stand-ins with its receipt, the caller's data export, and who
 * may do each.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RetellSim, startRetellSim } from '../../sim/platforms/retell';
import { startVapiSim, type VapiSim } from '../../sim/platforms/vapi';
import type { ClientRow } from '../../src/server/db/schema';
import { createRetellProvider } from '../../src/server/providers/voice/retell';
import { createVapiProvider } from '../../src/server/providers/voice/vapi';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DATABASE_URL, TEST_DB, type TestApp } from '../helpers/test-app';

const FAST = { timeoutMs: 2_000, retryBaseMs: 10, maxRetries: 1 };
const DAY = 24 * 60 * 60 * 1000;
const CARD_WORDS = 'my card is 4242 4242 4242 4242, expiry oh four twenty-seven';
const SPELLED_EMAIL = 'my email is j o h n dot smith at gmail dot com';

const transcriptOf = (lines: string[]) =>
  lines.map((text, i) => ({ role: i % 2 === 0 ? 'agent' : 'user', text }));

describe(`callers' personal data (${TEST_DB})`, () => {
  let t: TestApp;
  let vapi: VapiSim;
  let retell: RetellSim;
  let admin: string;

  beforeAll(async () => {
    vapi = await startVapiSim();
    retell = await startRetellSim();
    t = await createTestApp({
      voices: {
        vapi: createVapiProvider({ baseUrl: vapi.url, ...FAST }),
        retell: createRetellProvider({ baseUrl: retell.url, ...FAST }),
      },
    });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t?.close();
    await vapi?.close();
    await retell?.close();
  });

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  /** Every text the database holds for a client: calls, delivery log, outbox, live events. */
  async function everythingStored(clientId: string): Promise<string> {
    const db = t.deps.db;
    const calls = await db.selectFrom('calls').selectAll().where('client_id', '=', clientId).execute();
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    const outbox = await db.selectFrom('outbox').selectAll().where('client_id', '=', clientId).execute();
    const live = await db.selectFrom('live_events').selectAll().where('client_id', '=', clientId).execute();
    return JSON.stringify([calls, deliveries, outbox, live]);
  }

  /** The database's own bytes: the SQLite file and its WAL, or a pg_dump of the database. */
  async function databaseBytes(): Promise<Buffer> {
    const dumps: Buffer[] = [];
    if (TEST_DB === 'sqlite') {
      for (const name of ['test.sqlite', 'test.sqlite-wal']) {
        const file = path.join(t.config.dataDir, name);
        if (existsSync(file)) dumps.push(readFileSync(file));
      }
    } else {
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.deps.db);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${rows[0].name}`;
      dumps.push(execFileSync('pg_dump', ['--data-only', url.toString()], { maxBuffer: 256 * 1024 * 1024 }));
    }
    return Buffer.concat(dumps);
  }

  async function erasureDone(cookie: string, body: object, base = '/api/client/erasure') {
    const asked = await req('POST', base, cookie, body);
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = asked.json();
    await expect
      .poll(async () => (await req('GET', `${base}/${id}`, cookie)).json().state, { timeout: 10_000 })
      .toBe('done');
    return (await req('GET', `${base}/${id}`, cookie)).json();
  }

  async function searchFinds(cookie: string, words: string): Promise<number> {
    const res = await req(
      'GET',
      `/api/client/calls?dateRange=90d&search=${encodeURIComponent(words)}`,
      cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().calls.length;
  }

  it('starts with cards redacted, the rest off, and retention keeping everything', async () => {
    const { cookie } = await createSignedInClient(t);
    const res = await req('GET', '/api/client/privacy', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hideNumbersUntilShown: false,
      redaction: {
        cards: true,
        nationalIds: false,
        emails: false,
        phones: false,
        dates: false,
        addresses: false,
      },
      nationalIdCountries: [],
      retention: { transcriptDays: null, recordingDays: null, callDays: null },
      reRedaction: { state: 'idle', done: 0, total: 0 },
    });
  });

  it('redacts a card read out and a spelled e-mail on arrival: found in no stored copy nor the search', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const put = await req('PUT', '/api/client/privacy', cookie, { redaction: { emails: true } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().redaction).toMatchObject({ cards: true, emails: true });

    await storeCalls(t.deps, client, [
      {
        transcript: transcriptOf(['How can I help?', CARD_WORDS, 'And your e-mail?', SPELLED_EMAIL]),
        insights: {
          summary: 'Caller paid with card 4242 4242 4242 4242 and gave john.smith@gmail.com',
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: { card: '4242424242424242' },
          variables: { email: 'john.smith@gmail.com' },
        },
        raw: { id: 'x', message: { summary: 'card 4242 4242 4242 4242' } },
      },
    ]);
    const list = (await req('GET', '/api/client/calls?dateRange=7d', cookie)).json();
    const detail = (await req('GET', `/api/client/calls/${list.calls[0].id}`, cookie)).json();
    const lines = JSON.parse(detail.transcript) as { text: string }[];
    expect(lines[1].text).toBe('my card is [CARD], expiry [EXPIRY]');
    expect(lines[3].text).toBe('my email is [EMAIL]');
    expect(detail.summary).toBe('Caller paid with card [CARD] and gave [EMAIL]');

    const stored = await everythingStored(client.id);
    // The card, not any "4242" a uuid or a millisecond timestamp holds by chance.
    expect(stored).not.toMatch(/4242\D{0,3}4242/);
    expect(stored).not.toMatch(/smith/i);
    expect(await searchFinds(cookie, '4242')).toBe(0);
    expect(await searchFinds(cookie, 'smith')).toBe(0);
    expect(await searchFinds(cookie, 'card')).toBe(1);

    const csv = await req('GET', '/api/client/calls/export?dateRange=7d&format=csv', cookie);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).not.toMatch(/4242|smith/i);

    const bytes = await databaseBytes();
    expect(bytes.includes('[CARD]')).toBe(true);
    expect(bytes.includes('4242 4242')).toBe(false);
    expect(bytes.includes('4242424242424242')).toBe(false);
  });

  it('redacts what it turns on in the calls stored before, with progress, search included', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await storeCalls(
      t.deps,
      client,
      Array.from({ length: 5 }, (_, i) => ({
        transcript: transcriptOf(['Your e-mail please?', `it is pat${i} at example dot org thanks`]),
      })),
    );
    expect(await searchFinds(cookie, 'example')).toBe(5);
    const put = await req('PUT', '/api/client/privacy', cookie, { redaction: { emails: true } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().reRedaction.state).toBe('running');
    await expect
      .poll(async () => (await req('GET', '/api/client/privacy', cookie)).json().reRedaction, {
        timeout: 10_000,
      })
      .toEqual({ state: 'done', done: 5, total: 5 });
    expect(await everythingStored(client.id)).not.toMatch(/example/);
    expect(await searchFinds(cookie, 'example')).toBe(0);
  });

  it('removes transcripts past retention within the run it starts, and the totals stay', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const now = t.deps.now();
    await storeCalls(t.deps, client, [
      {
        createdAt: now - 10 * DAY,
        transcript: transcriptOf(['old words']),
        recordingUrl: 'https://r.example/1.mp3',
      },
      { createdAt: now - 9 * DAY, transcript: transcriptOf(['older words']) },
      { createdAt: now - 2 * DAY, transcript: transcriptOf(['new words']) },
    ]);
    const before = (await req('GET', '/api/client/stats?dateRange=30d', cookie)).json();
    expect(before.totalCalls).toBe(3);

    const put = await req('PUT', '/api/client/privacy', cookie, { retention: { transcriptDays: 7 } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().retention).toEqual({ transcriptDays: 7, recordingDays: null, callDays: null });
    await expect
      .poll(
        async () =>
          (
            await t.deps.db
              .selectFrom('calls')
              .select('id')
              .where('client_id', '=', client.id)
              .where('transcript', 'is', null)
              .execute()
          ).length,
        { timeout: 10_000 },
      )
      .toBe(2);
    const list = (await req('GET', '/api/client/calls?dateRange=30d', cookie)).json();
    const old = list.calls.find((c: { createdAt: string }) => Date.parse(c.createdAt) < now - 8 * DAY);
    const detail = (await req('GET', `/api/client/calls/${old.id}`, cookie)).json();
    expect(detail.transcript).toBeNull();
    expect(detail.transcriptRemovedAt).toEqual(expect.any(String));
    expect(await searchFinds(cookie, 'words')).toBe(1);
    expect((await req('GET', '/api/client/stats?dateRange=30d', cookie)).json()).toEqual(before);

    // Whole calls: the calls go, the totals stay.
    const calls = await req('PUT', '/api/client/privacy', cookie, { retention: { callDays: 5 } });
    expect(calls.statusCode, calls.body).toBe(200);
    await expect
      .poll(async () => (await req('GET', '/api/client/calls?dateRange=30d', cookie)).json().calls.length, {
        timeout: 10_000,
      })
      .toBe(1);
    expect((await req('GET', '/api/client/stats?dateRange=30d', cookie)).json()).toEqual(before);
  });

  it('refuses a retention longer than the agency’s, or out of range, naming the field; changes nothing', async () => {
    const { cookie } = await createSignedInClient(t);
    const defaults = await req('PUT', '/api/admin/privacy-defaults', admin, { retention: { callDays: 365 } });
    expect(defaults.statusCode, defaults.body).toBe(200);
    try {
      const longer = await req('PUT', '/api/client/privacy', cookie, { retention: { callDays: 400 } });
      expect(longer.statusCode).toBe(400);
      expect(longer.json().fields).toHaveProperty(['retention.callDays']);
      const keep = await req('PUT', '/api/client/privacy', cookie, { retention: { callDays: null } });
      expect(keep.statusCode).toBe(400);
      for (const bad of [0, -1, 1.5, 4000, '7'])
        expect(
          (await req('PUT', '/api/client/privacy', cookie, { retention: { transcriptDays: bad } }))
            .statusCode,
        ).toBe(400);
      expect(
        (await req('PUT', '/api/client/privacy', cookie, { redaction: { cards: 'yes' } })).statusCode,
      ).toBe(400);
      expect(
        (await req('PUT', '/api/client/privacy', cookie, { nationalIdCountries: ['XX'] })).statusCode,
      ).toBe(400);
      const now = (await req('GET', '/api/client/privacy', cookie)).json();
      expect(now.retention).toEqual({ transcriptDays: null, recordingDays: null, callDays: 365 });
      expect(now.agencyRetention.callDays).toBe(365);
      const shorter = await req('PUT', '/api/client/privacy', cookie, { retention: { callDays: 30 } });
      expect(shorter.json().retention.callDays).toBe(30);
    } finally {
      await req('PUT', '/api/admin/privacy-defaults', admin, { retention: { callDays: null } });
    }
  });

  async function platformClient(
    provider: 'vapi' | 'retell',
  ): Promise<{ client: ClientRow; cookie: string; ids: string[] }> {
    const key = `${provider}-key-${randomUUID().slice(0, 8)}`;
    if (provider === 'vapi') vapi.addKey(key);
    const simCalls =
      provider === 'vapi'
        ? vapi.addCalls(key, { count: 2 }).map((c) => c.id)
        : retell.addCalls(key, { count: 2 }).map((c) => c.call_id as string);
    const { client, cookie } = await createSignedInClient(t, {
      provider,
      bland_api_key_enc: t.deps.secrets.encrypt(key),
      api_key_status: 'valid',
    });
    // A day old: a window's totals are exact for calls erased from its whole 15-minute buckets (a
    // call erased within the edge bucket of a window, read from the calls themselves, leaves it).
    const createdAt = t.deps.now() - DAY;
    await storeCalls(t.deps, client, [
      {
        providerCallId: simCalls[0],
        fromNumber: '+12125550100',
        transcript: transcriptOf(['hello there']),
        createdAt,
      },
      { providerCallId: simCalls[1], toNumber: '+12125550100', createdAt },
      { fromNumber: '+13125550199', createdAt },
    ]);
    return { client, cookie, ids: simCalls };
  }

  for (const provider of ['vapi', 'retell'] as const) {
    it(`erases a caller's calls here and at ${provider}, keeps the totals, and gives a receipt`, async () => {
      const { client, cookie, ids } = await platformClient(provider);
      const before = (await req('GET', '/api/client/stats?dateRange=7d', cookie)).json();
      const asked = await req('POST', '/api/client/erasure', cookie, { phone: '(212) 555-0100' });
      expect(asked.statusCode, asked.body).toBe(202);
      const { id } = asked.json();
      await expect
        .poll(async () => (await req('GET', `/api/client/erasure/${id}`, cookie)).json().state, {
          timeout: 10_000,
        })
        .toBe('done');
      const status = (await req('GET', `/api/client/erasure/${id}`, cookie)).json();
      expect(status).toMatchObject({
        subject: { kind: 'phone', value: '+12125550100' },
        calls: 2,
        providers: [{ provider, deleted: 2, failed: 0, unsupported: 0 }],
        receiptUrl: `/api/client/erasure/${id}/receipt`,
      });
      const left = (await req('GET', '/api/client/calls?dateRange=7d', cookie)).json().calls;
      expect(left.map((c: { fromNumber: string }) => c.fromNumber)).toEqual(['+13125550199']);
      expect(await everythingStored(client.id)).not.toMatch(/2125550100/);
      expect((await req('GET', '/api/client/stats?dateRange=7d', cookie)).json()).toEqual(before);
      // Gone at the platform: its API no longer knows the calls.
      const voice = t.deps.voices[provider];
      const key = t.deps.secrets.decrypt(client.bland_api_key_enc!);
      for (const callId of ids) await expect(voice.getCall(key, callId)).rejects.toThrow();

      const json = await req('GET', `/api/client/erasure/${id}/receipt?format=json`, cookie);
      expect(json.statusCode).toBe(200);
      expect(json.json()).toMatchObject({ receipt: 'erasure', calls: 2, subject: { value: '+12125550100' } });
      expect(json.json().perCall).toHaveLength(2);
      const pdf = await req('GET', `/api/client/erasure/${id}/receipt`, cookie);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const log = (await req('GET', '/api/client/activity', cookie)).json();
      expect(log.items.map((e: { action: string }) => e.action)).toContain('caller_erased');
    });
  }

  it('erases by e-mail only the calls naming the whole address, as the preview showed, here and at Vapi', async () => {
    const key = `vapi-key-${randomUUID().slice(0, 8)}`;
    vapi.addKey(key);
    const sim = vapi.addCalls(key, { count: 6 }).map((c) => c.id);
    const { client, cookie } = await createSignedInClient(t, {
      provider: 'vapi',
      bland_api_key_enc: t.deps.secrets.encrypt(key),
      api_key_status: 'valid',
    });
    const createdAt = t.deps.now() - DAY;
    const naming = (providerCallId: string, minutes: number, words: string, fromNumber = '+13125550199') => ({
      providerCallId,
      fromNumber,
      createdAt: createdAt + minutes * 60_000,
      transcript: transcriptOf(['How can we reach you?', words]),
    });
    await storeCalls(t.deps, client, [
      naming(sim[0], 1, 'write to X@Example.com please', '+12125550100'),
      {
        ...naming(sim[1], 2, 'thanks'),
        insights: {
          summary: null,
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: {},
          variables: { email: 'x@example.com' },
        },
      },
      naming(sim[2], 3, 'it is max@example.com'),
      naming(sim[3], 4, 'it is alex@example.com.au'),
      naming(sim[4], 5, 'it is rex@example.community'),
      naming(sim[5], 6, 'mine is x@example.co'),
    ]);
    const other = await createSignedInClient(t);
    await storeCalls(t.deps, other.client, [naming(`other-${randomUUID()}`, 1, 'x@example.com here')]);

    const preview = await req('POST', '/api/client/erasure/preview', cookie, { email: 'x@example.com' });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().count).toBe(2);
    const sample = preview.json().sample;
    expect(sample).toHaveLength(2);
    // The newest first, the caller masked, a line around the address.
    expect(sample[0].createdAt).toBeGreaterThan(sample[1].createdAt);
    expect(sample[1].caller).toBe('+1 212 ••• 0100');
    expect(sample[1].excerpt).toMatch(/write to X@Example\.com please/);
    expect(JSON.stringify(sample)).not.toMatch(/max@|alex@|rex@/);
    // Bad input: a 400 as for the erasure itself.
    for (const body of [{}, { email: 'nope' }, { phone: 'call me' }])
      expect((await req('POST', '/api/client/erasure/preview', cookie, body)).statusCode).toBe(400);
    const adminPreview = await req('POST', `/api/admin/client-erasure/${client.id}/preview`, admin, {
      email: 'X@example.com',
    });
    expect(adminPreview.statusCode, adminPreview.body).toBe(200);
    expect(adminPreview.json().count).toBe(2);

    const status = await erasureDone(cookie, { email: 'x@example.com' });
    expect(status).toMatchObject({ calls: 2, providers: [{ provider: 'vapi', deleted: 2, failed: 0 }] });
    const left = (await req('GET', '/api/client/calls?dateRange=7d', cookie)).json().calls;
    expect(left.map((c: { providerCallId: string }) => c.providerCallId).sort()).toEqual(sim.slice(2).sort());
    const voice = t.deps.voices.vapi;
    for (const callId of sim.slice(0, 2)) await expect(voice.getCall(key, callId)).rejects.toThrow();
    for (const callId of sim.slice(2)) await expect(voice.getCall(key, callId)).resolves.toBeTruthy();
    // Another client's call naming the same address is not this client's to erase.
    expect((await req('GET', '/api/client/calls?dateRange=7d', other.cookie)).json().calls).toHaveLength(1);
  });

  it('after an erasure the erased words are nowhere in the database’s files, search index included', async () => {
    const { client, cookie } = await createSignedInClient(t);
    // Long enough to need overflow pages, which SQLite frees whole rather than rewriting in place.
    const filler = 'the caller talked about the weather for a while and then about the order '.repeat(80);
    await storeCalls(t.deps, client, [
      {
        fromNumber: '+12125550177',
        transcript: transcriptOf(['Your name?', `I am Zorblaxian Quixotrunk. ${filler}`]),
        insights: {
          summary: 'Zorblaxian Quixotrunk asked about the order',
          answeredBy: 'human',
          endedBy: 'user',
          errorMessage: null,
          dispositionTag: null,
          analysis: {},
          variables: {},
        },
      },
      { fromNumber: '+13125550199', transcript: transcriptOf(['hello', filler]) },
    ]);
    expect(await searchFinds(cookie, 'zorblaxian')).toBe(1);
    if (TEST_DB === 'sqlite') expect((await databaseBytes()).includes('Zorblaxian')).toBe(true);

    await erasureDone(cookie, { phone: '+1 212 555 0177' });
    expect(await searchFinds(cookie, 'zorblaxian')).toBe(0);
    expect(await searchFinds(cookie, 'weather')).toBe(1);
    const bytes = (await databaseBytes()).toString('latin1').toLowerCase();
    expect(bytes).not.toContain('zorblax');
    expect(bytes).not.toContain('quixotrunk');
  });

  it('erasing a number with no calls is a receipt with 0; bad input is a 400 that starts nothing', async () => {
    const { cookie } = await createSignedInClient(t);
    const asked = await req('POST', '/api/client/erasure', cookie, { phone: '+44 20 7946 0958' });
    expect(asked.statusCode).toBe(202);
    await expect
      .poll(async () => (await req('GET', `/api/client/erasure/${asked.json().id}`, cookie)).json(), {
        timeout: 10_000,
      })
      .toMatchObject({ state: 'done', calls: 0, copies: 0, providers: [] });
    for (const body of [
      {},
      { phone: 'call me' },
      { email: 'not-an-address' },
      { phone: '+12125550100', email: 'a@b.co' },
    ])
      expect((await req('POST', '/api/client/erasure', cookie, body)).statusCode).toBe(400);
    expect((await req('GET', '/api/client/erasure', cookie)).json().erasures).toHaveLength(1);
    expect((await req('GET', `/api/client/erasure/${randomUUID()}`, cookie)).statusCode).toBe(404);
  });

  it('exports every call of a caller as JSON, and nobody else’s', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const other = await createSignedInClient(t);
    await storeCalls(t.deps, client, [
      { fromNumber: '+12125550100', transcript: transcriptOf(['hi']) },
      { fromNumber: '+13125550199' },
    ]);
    await storeCalls(t.deps, other.client, [{ fromNumber: '+12125550100' }]);
    const res = await req('POST', '/api/client/subject-export', cookie, { phone: '+1 212 555 0100' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment/);
    const body = JSON.parse(res.body);
    expect(body.calls).toHaveLength(1);
    expect(body.calls[0].transcript[0].text).toBe('hi');
  });

  it('keeps another client’s erasures and settings out of reach', async () => {
    const a = await createSignedInClient(t);
    const b = await createSignedInClient(t);
    const asked = await req('POST', '/api/client/erasure', a.cookie, { phone: '+12125550100' });
    const id = asked.json().id;
    expect((await req('GET', `/api/client/erasure/${id}`, b.cookie)).statusCode).toBe(404);
    expect((await req('GET', `/api/client/erasure/${id}/receipt`, b.cookie)).statusCode).toBe(404);
    expect((await req('GET', `/api/admin/client-erasure/${a.client.id}/${id}`, admin)).statusCode).toBe(200);
    const adminPut = await req('PUT', `/api/admin/client-privacy/${a.client.id}`, admin, {
      redaction: { dates: true },
    });
    expect(adminPut.statusCode, adminPut.body).toBe(200);
    expect((await req('GET', '/api/client/privacy', b.cookie)).json().redaction.dates).toBe(false);
    expect((await req('GET', '/api/client/privacy', a.cookie)).json().redaction.dates).toBe(true);
    // The engine's own tables are the only place a setting lives: no row for b.
    const rows = await sql<{
      n: number;
    }>`select count(*) as n from client_privacy where client_id = ${b.client.id}`.execute(t.deps.db);
    expect(Number(rows.rows[0].n)).toBe(0);
  });
});
