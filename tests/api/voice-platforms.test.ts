/**
 * Vapi and Retell beside Bland, on the test database, through the real adapters
 * against the stand-ins in sim/platforms: onboarding on each platform through the wizard's
 * endpoints (a test call arrives, signed the platform's way), the client's dashboard, outcome,
 * recording, sync and export; refused signatures; the platforms' error answers; cursor paging;
 * Vapi's HMAC defaults, stale and replayed deliveries, saved numbers, and Retell calls that never
 * connected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RetellSim, startRetellSim } from '../../sim/platforms/retell';
import { startVapiSim, VAPI_SIM_PHONE_NUMBER, type VapiSim, vapiAuthHeaders } from '../../sim/platforms/vapi';
import type { VoiceProviderId } from '../../src/contract/providers';
import { createRetellProvider } from '../../src/server/providers/voice/retell';
import { createVapiProvider } from '../../src/server/providers/voice/vapi';
import { countCallsOf } from '../helpers/calls';
import { createAdminUser, loginAdmin, loginWithTemporaryPassword } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const FAST = { timeoutMs: 2_000, retryBaseMs: 10, maxRetries: 1 };

describe(`Vapi and Retell beside Bland (${TEST_DB})`, () => {
  let vapi: VapiSim;
  let retell: RetellSim;
  let t: TestApp;
  let appUrl: string;
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
    appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await vapi.close();
    await retell.close();
  });
  beforeEach(() => {
    vapi.reset();
    retell.reset();
  });

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  let seq = 0;
  /** The wizard's first steps: a draft on the platform, then its key (and secret) in the edit dialog. */
  async function onboard(provider: VoiceProviderId, apiKey: string, secret?: string) {
    const email = `platform-${provider}-${++seq}-${Date.now()}@example.com`;
    const generated = await req('POST', '/api/admin/generate-webhook', {
      provider,
      firstName: 'Ada',
      lastName: 'Platform',
      email,
    });
    expect(generated.statusCode, generated.body).toBe(201);
    const { id, webhookUrl } = generated.json() as { id: string; webhookUrl: string };
    // Key checks are limited per admin (10 per 15 minutes): each onboarding has its own admin.
    const a = await createAdminUser(t.deps);
    const own = await loginAdmin(t.app, a.username, a.password);
    const edited = await req(
      'PUT',
      `/api/admin/client-config/${id}`,
      {
        firstName: 'Ada',
        lastName: 'Platform',
        email,
        blandApiKey: apiKey,
        ...(secret ? { webhookSigningSecret: secret } : {}),
      },
      own,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    return { id, email, url: `${appUrl}${new URL(webhookUrl).pathname}` };
  }

  async function finishAndLogin(id: string, email: string) {
    expect((await req('GET', `/api/admin/webhook-status/${id}`)).json().isTestSuccessful).toBe(true);
    expect((await req('POST', `/api/admin/finalize-client/${id}`)).statusCode).toBe(200);
    const creds = (await req('POST', `/api/admin/clients/${id}/generate-credentials`)).json();
    return loginWithTemporaryPassword(t.app, email, creds.temporaryPassword);
  }

  async function dashboardWorks(cookie: string, expected: { from: string; to: string; agent: string }) {
    const calls = (await req('GET', '/api/client/calls', undefined, cookie)).json();
    expect(calls.calls).toHaveLength(1);
    const call = calls.calls[0];
    expect(call).toMatchObject({ fromNumber: expected.from, toNumber: expected.to, status: 'completed' });
    expect(call.duration).toBeGreaterThan(0);
    expect(call.outcome).toBe('Reached a person');
    const detailOf = async () => (await req('GET', `/api/client/calls/${call.id}`, undefined, cookie)).json();
    const detail = await detailOf();
    expect(detail.summary).toMatch(/booked a consultation/);
    // The agent's name is looked up after the delivery is answered.
    await expect.poll(async () => (await detailOf()).pathway).toBe(expected.agent);
    const lines = JSON.parse(detail.transcript) as { role: string; text: string }[];
    expect(lines.map((l) => l.role).slice(0, 2)).toEqual(['agent', 'user']);
    expect(lines[0].text).toMatch(/booking line/);
    const audio = await req('GET', `/api/client/recording/${call.id}`, undefined, cookie);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(audio.headers['x-content-type-options']).toBe('nosniff');
    expect(audio.headers['content-disposition']).toBe(`inline; filename="recording-${call.id}.mp3"`);
    expect(audio.rawPayload.length).toBeGreaterThan(1000);
    const stats = (await req('GET', '/api/client/stats?dateRange=7d', undefined, cookie)).json();
    expect(stats.totalCalls).toBe(1);
    return call;
  }

  it('onboards a Vapi client: its signed end-of-call report is the test call, and everything works', async () => {
    const key = 'vapi-private-key-0001';
    vapi.addKey(key);
    const { id, email, url } = await onboard('vapi', key, 'vapi-server-secret-01');
    const config = (await req('GET', `/api/admin/client-config/${id}`)).json();
    expect(config).toMatchObject({ provider: 'vapi', apiKeyStatus: 'valid', hasWebhookSigningSecret: true });

    const placed = await vapi.placeTestCall({
      webhookUrl: url,
      apiKey: key,
      auth: { secret: 'vapi-server-secret-01' },
    });
    expect(placed.status, placed.body).toBe(200);
    const cookie = await finishAndLogin(id, email);
    const call = await dashboardWorks(cookie, {
      from: '+14155550100',
      to: String((placed.call.customer as { number: string }).number),
      agent: 'Booking Assistant',
    });
    expect(call.cost).toBeGreaterThan(0);

    // Sync pulls the rest by creation time; the test call is not stored twice.
    vapi.addCalls(key, { count: 3 });
    const synced = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json()).toMatchObject({
      created: 3,
      message: expect.stringContaining('from the call service'),
    });
    const csv = await req('GET', '/api/client/calls/export?format=csv', undefined, cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(5);
  });

  it('onboards a Retell client: call_analyzed signed with its API key is the test call, and everything works', async () => {
    const key = 'key_retell0000000000000001';
    retell.addKey(key);
    const { id, email, url } = await onboard('retell', key);
    expect((await req('GET', `/api/admin/client-config/${id}`)).json()).toMatchObject({
      provider: 'retell',
      apiKeyStatus: 'valid',
    });

    const placed = await retell.placeTestCall({ webhookUrl: url, apiKey: key });
    expect(placed.status, placed.body).toBe(200);
    const cookie = await finishAndLogin(id, email);
    const call = await dashboardWorks(cookie, {
      from: String(placed.call.from_number),
      to: '+14155550123',
      agent: 'Front Desk Agent',
    });
    const detail = (await req('GET', `/api/client/calls/${call.id}`, undefined, cookie)).json();
    expect(detail).toMatchObject({ endedBy: 'user', dispositionTag: 'successful' });
    expect(detail.analysis).toMatchObject({
      booked: true,
      user_sentiment: 'Positive',
      call_successful: true,
    });

    retell.addCalls(key, { count: 4 });
    const synced = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(synced.json()).toMatchObject({
      created: 4,
      message: expect.stringContaining('from the call service'),
    });
    const csv = await req('GET', '/api/client/calls/export?format=csv', undefined, cookie);
    expect(csv.body.trim().split('\n')).toHaveLength(6);
  });

  it('refuses deliveries not signed the platform’s way, and stores nothing from them', async () => {
    const vapiKey = 'vapi-private-key-0002';
    vapi.addKey(vapiKey);
    const v = await onboard('vapi', vapiKey, 'the-right-secret-0002');
    for (const auth of [
      null,
      { secret: 'a-wrong-secret-000002' },
      { secret: 'a-wrong-secret-000002', kind: 'hmac' as const },
    ]) {
      const answer = await vapi.placeTestCall({ webhookUrl: v.url, apiKey: vapiKey, auth });
      expect(answer.status).toBe(401);
    }
    // The credential's forms are accepted: HMAC at Vapi's defaults or of the body alone, the
    // legacy header, a Bearer token.
    for (const kind of ['hmac', 'hmac-body', 'header', 'bearer'] as const) {
      const answer = await vapi.placeTestCall({
        webhookUrl: v.url,
        apiKey: vapiKey,
        auth: { secret: 'the-right-secret-0002', kind },
      });
      expect(answer.status, kind).toBe(200);
    }

    const retellKey = 'key_retell0000000000000002';
    retell.addKey(retellKey);
    const r = await onboard('retell', retellKey);
    const forged = await retell.placeTestCall({
      webhookUrl: r.url,
      apiKey: retellKey,
      signWith: 'key_someone_else_0000000',
    });
    expect(forged.status).toBe(401);
    // A signature of the right key but from ten minutes ago is a replay.
    const body = JSON.stringify({
      event: 'call_analyzed',
      call: { call_id: 'call_replayed', call_status: 'ended' },
    });
    const { retellSign } = await import('../../sim/platforms/retell');
    const stale = await fetch(r.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-retell-signature': retellSign(body, retellKey, Date.now() - 600_000),
      },
      body,
    });
    expect(stale.status).toBe(401);
    const stored = await t.deps.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', 'in', [v.id, r.id])
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(4);
  });

  it('answers bad bodies with 400 and acknowledges the other messages', async () => {
    const v = await onboard('vapi', 'vapi-private-key-0003');
    const post = (payload: unknown) =>
      fetch(v.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
    expect((await post({ type: 'end-of-call-report' })).status).toBe(400);
    expect((await post({ message: { type: 'end-of-call-report', call: { id: '../../etc' } } })).status).toBe(
      400,
    );
    expect(
      (await post({ message: { type: 'speech-update', status: 'started', call: { id: 'x' } } })).status,
    ).toBe(200);
    const r = await onboard('retell', 'key_retell0000000000000003');
    const signedPost = async (payload: unknown) => {
      const body = JSON.stringify(payload);
      const { retellSign } = await import('../../sim/platforms/retell');
      return fetch(r.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-retell-signature': retellSign(body, 'key_retell0000000000000003'),
        },
        body,
      });
    };
    expect((await signedPost({ call: {} })).status).toBe(400);
    expect(
      (
        await signedPost({
          event: 'call_analyzed',
          call: { call_id: 'call_1', start_timestamp: Date.now() + 3_600_000 },
        })
      ).status,
    ).toBe(400);
    expect((await signedPost({ event: 'transcript_updated', call: { call_id: 'call_1' } })).status).toBe(200);
  });

  it('reports the platforms’ error answers: a refused key, an outage, an unknown call', async () => {
    const key = 'vapi-private-key-0004';
    vapi.addKey(key);
    const { id, email, url } = await onboard('vapi', key);
    await vapi.placeTestCall({ webhookUrl: url, apiKey: key });
    const cookie = await finishAndLogin(id, email);

    vapi.setMode('500');
    const down = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toMatch(/not responding/);

    vapi.setMode('401');
    const refused = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'The call service rejected the API key. Update the key and try again.',
    );
    expect((await req('GET', `/api/admin/client-config/${id}`)).json().apiKeyStatus).toBe('invalid');
    vapi.setMode('normal');

    // The call is gone at Vapi: its recording is answered 404, naming nothing of the provider's.
    vapi.accounts.get(key)?.clear();
    const [call] = (await req('GET', '/api/client/calls', undefined, cookie)).json().calls;
    const gone = await req('GET', `/api/client/recording/${call.id}`, undefined, cookie);
    expect(gone.statusCode).toBe(404);

    // A wrong key is refused when the admin enters it.
    const edited = await req('PUT', `/api/admin/client-config/${id}`, {
      firstName: 'Ada',
      lastName: 'Platform',
      email,
      blandApiKey: 'vapi-unknown-key-0000',
    });
    expect(edited.json().apiKeyCheck ?? edited.json().message).toBeDefined();
    expect((await req('GET', `/api/admin/client-config/${id}`)).json().apiKeyStatus).toBe('invalid');
  });

  it('pages through every call by cursor, including calls that share a millisecond', async () => {
    const key = 'vapi-private-key-0005';
    vapi.addCalls(key, { count: 4, endAt: Date.now() - 3_600_000 });
    vapi.addCalls(key, { count: 5, sameInstant: true });
    const voice = createVapiProvider({ baseUrl: vapi.url, ...FAST });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await voice.listCalls(key, {
        limit: 2,
        cursor,
        startDate: new Date(Date.now() - 86_400_000),
      });
      seen.push(...page.calls.map((c) => c.providerCallId));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);

    const rKey = 'key_retell0000000000000005';
    retell.addCalls(rKey, { count: 5 });
    const rVoice = createRetellProvider({ baseUrl: retell.url, ...FAST });
    const rSeen: number[] = [];
    let rCursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await rVoice.listCalls(rKey, { limit: 2, cursor: rCursor });
      pages++;
      rSeen.push(...page.calls.map((c) => c.createdAt));
      if (page.nextCursor === null) break;
      rCursor = page.nextCursor;
    }
    expect(pages).toBe(3);
    expect(rSeen).toEqual([...rSeen].sort((a, b) => a - b));
    expect(rSeen).toHaveLength(5);
  });

  const countCalls = (clientId: string) => countCallsOf(t.deps.db, clientId);

  it('accepts a delivery signed at Vapi’s HMAC defaults, refuses a stale one, and merges a replayed body-only one', async () => {
    const key = 'vapi-private-key-0007';
    const secret = 'vapi-hmac-secret-0007';
    vapi.addKey(key);
    const { id, url } = await onboard('vapi', key, secret);
    // The stand-in's default credential: x-signature over "{timestamp}.{body}", x-timestamp.
    const placed = await vapi.placeTestCall({ webhookUrl: url, apiKey: key, auth: { secret } });
    expect(placed.status, placed.body).toBe(200);
    expect(await countCalls(id)).toBe(1);

    const report = (callId: string) =>
      JSON.stringify({
        message: {
          type: 'end-of-call-report',
          endedReason: 'customer-ended-call',
          startedAt: new Date(Date.now() - 90_000).toISOString(),
          endedAt: new Date(Date.now() - 30_000).toISOString(),
          call: {
            id: callId,
            createdAt: new Date(Date.now() - 90_000).toISOString(),
            type: 'outboundPhoneCall',
          },
        },
      });
    const post = (body: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    // Captured and sent again ten minutes later: the timestamp gives it away.
    const staleBody = report('5d9c2b1a-0e4f-4a3b-8c7d-6e5f4a3b2c10');
    const stale = await post(staleBody, vapiAuthHeaders(staleBody, { secret, at: Date.now() - 600_000 }));
    expect(stale.status).toBe(401);
    expect((await stale.json()).message).toMatch(/5 minutes/);
    expect(await countCalls(id)).toBe(1);

    // A body-only signature cannot be dated: its replay is the same call again, merged.
    const bodyOnly = report('6e0d3c2b-1f5a-4b4c-9d8e-7f6a5b4c3d21');
    for (let i = 0; i < 2; i++) {
      const answer = await post(bodyOnly, vapiAuthHeaders(bodyOnly, { secret, kind: 'hmac-body' }));
      expect(answer.status).toBe(200);
    }
    expect(await countCalls(id)).toBe(2);
  });

  it('syncs Vapi calls on a saved number with the agency’s number filled from phoneNumberId', async () => {
    const key = 'vapi-private-key-0008';
    vapi.addKey(key);
    const { id, email, url } = await onboard('vapi', key);
    await vapi.placeTestCall({ webhookUrl: url, apiKey: key });
    const cookie = await finishAndLogin(id, email);
    const added = vapi.addCalls(key, { count: 4, endAt: Date.now() - 60_000 });
    added[0].type = 'inboundPhoneCall';
    const synced = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(synced.json()).toMatchObject({ created: 4 });
    const { calls } = (await req('GET', '/api/client/calls', undefined, cookie)).json() as {
      calls: { fromNumber: string; toNumber: string }[];
    };
    expect(calls).toHaveLength(5);
    for (const call of calls) {
      expect([call.fromNumber, call.toNumber]).toContain(VAPI_SIM_PHONE_NUMBER.number);
      expect(call.fromNumber).not.toBe('');
      expect(call.toNumber).not.toBe('');
    }
    expect(calls.filter((c) => c.toNumber === VAPI_SIM_PHONE_NUMBER.number)).toHaveLength(1);
  });

  it('syncs Retell calls that never connected, as failed no-answers', async () => {
    const key = 'key_retell0000000000000009';
    retell.addKey(key);
    const { id, email, url } = await onboard('retell', key);
    await retell.placeTestCall({ webhookUrl: url, apiKey: key });
    const cookie = await finishAndLogin(id, email);
    // The first sync sets the watermark; the next brings what came since.
    await req('POST', '/api/client/calls/sync', undefined, cookie);
    // Both after the watermark (the test call's start), within Retell's 5 minutes of clock skew.
    retell.addCalls(key, { count: 2, notConnected: true, endAt: Date.now() + 120_000 });
    retell.addCalls(key, { count: 1, endAt: Date.now() + 240_000 });
    const synced = await req('POST', '/api/client/calls/sync', undefined, cookie);
    expect(synced.json()).toMatchObject({ created: 3 });
    const { calls } = (await req('GET', '/api/client/calls', undefined, cookie)).json() as {
      calls: { status: string; outcome: string; duration: number }[];
    };
    expect(calls).toHaveLength(4);
    const missed = calls.filter((c) => c.status === 'failed');
    expect(missed).toHaveLength(2);
    for (const call of missed) expect(call).toMatchObject({ outcome: 'No answer', duration: 0 });
  });

  it('keeps existing clients on Bland, and moves a client to another platform with its key checked there', async () => {
    const key = 'key_retell0000000000000006';
    retell.addKey(key);
    const { id, email } = await onboard('vapi', 'vapi-not-a-key-0006');
    expect((await req('GET', `/api/admin/client-config/${id}`)).json().apiKeyStatus).toBe('invalid');
    const moved = await req('PUT', `/api/admin/client-config/${id}`, {
      provider: 'retell',
      firstName: 'Ada',
      lastName: 'Platform',
      email,
      blandApiKey: key,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await req('GET', `/api/admin/client-config/${id}`)).json()).toMatchObject({
      provider: 'retell',
      apiKeyStatus: 'valid',
    });
    const bad = await req('POST', '/api/admin/generate-webhook', {
      provider: 'twilio',
      firstName: 'A',
      lastName: 'B',
      email: 'nobody@example.com',
    });
    expect(bad.statusCode).toBe(400);
  });
});
