import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { pruneRateCounters, pruneWebhookDeliveries } from '../../src/server/housekeeping';
import { loggerOptions } from '../../src/server/http/logging';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`voice webhook (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const deliver = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    deliverWebhook(t.app, token, body, headers);
  const callsOf = (clientId: string) =>
    t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', clientId).execute();
  const deliveriesOf = (clientId: string) =>
    t.deps.db.selectFrom('webhook_deliveries').selectAll().where('client_id', '=', clientId).execute();

  it('stores a finished call with its cost, transcript and recording, and marks the webhook verified', async () => {
    const client = await createClient(t.deps, { per_minute_rate_cents: 20 });
    const body = blandCallBody();
    const res = await deliver(client.webhook_token, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true, kind: 'call' });
    const [call] = await callsOf(client.id);
    expect(call).toMatchObject({
      provider_call_id: body.call_id,
      from_number: '+12125550199',
      to_number: '+14155550123',
      duration_seconds: 90,
      status: 'completed',
      cost_micros: 300_000, // 1.5 min × $0.20
      source: 'webhook',
    });
    expect(JSON.parse(call.transcript!)).toEqual([
      expect.objectContaining({ role: 'agent', text: 'Hello! How can I help?' }),
      expect.objectContaining({ role: 'user', text: 'Hi, I need an appointment.' }),
    ]);
    const after = await t.deps.db
      .selectFrom('clients')
      .select('webhook_verified_at')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(after.webhook_verified_at).not.toBeNull();

    // The client sees it through the API, with its recording offered.
    const cookie = await loginClient(t.app, client.email);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/client/calls', headers: { cookie } })
    ).json();
    expect(list.calls).toHaveLength(1);
    expect(list.calls[0]).toMatchObject({
      duration: 90,
      status: 'completed',
      recordingUrl: `/api/recording/${call.id}`,
    });
  });

  it('merges a duplicate delivery and never moves a finished call back to active', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody();
    await deliver(client.webhook_token, body);
    await deliver(client.webhook_token, body);
    const late = {
      ...body,
      completed: false,
      queue_status: 'started',
      status: null,
      corrected_duration: '0',
      call_length: 0,
    };
    expect((await deliver(client.webhook_token, late)).statusCode).toBe(200);
    const calls = await callsOf(client.id);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ status: 'completed', duration_seconds: 90 });
    expect((await deliveriesOf(client.id)).map((d) => d.outcome).sort()).toEqual([
      'created',
      'duplicate',
      'duplicate',
    ]);
  });

  it('moves an active call forward when the finished one arrives', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody({
      completed: false,
      queue_status: 'started',
      status: null,
      corrected_duration: null,
      call_length: null,
    });
    await deliver(client.webhook_token, body);
    expect((await callsOf(client.id))[0].status).toBe('active');
    await deliver(client.webhook_token, {
      ...body,
      completed: true,
      queue_status: 'complete',
      status: 'completed',
      corrected_duration: '42',
    });
    expect(await callsOf(client.id)).toMatchObject([{ status: 'completed', duration_seconds: 42 }]);
  });

  it('keeps a known outcome when a later delivery of the call maps to unknown', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody();
    await deliver(client.webhook_token, body);
    // Ended (queue complete) but with a status outside the mapping: stored as unknown when new.
    const odd = { ...body, status: 'in-progress', recording_url: null };
    expect((await deliver(client.webhook_token, odd)).statusCode).toBe(200);
    expect(await callsOf(client.id)).toMatchObject([
      { status: 'completed', recording_url: body.recording_url, duration_seconds: 90 },
    ]);

    const other = await createClient(t.deps);
    await deliver(other.webhook_token, odd);
    expect((await callsOf(other.id))[0].status).toBe('unknown');
    await deliver(other.webhook_token, body);
    expect((await callsOf(other.id))[0].status).toBe('completed');
  });

  it('acknowledges live events and follow-ups without creating calls', async () => {
    const client = await createClient(t.deps);
    const event = { message: 'Call started', call_id: 'abc-123', category: 'call', log_level: 'info' };
    const followUp = { event_type: 'call.analyzed', call_id: 'abc-123', message: 'Analysis ready' };
    for (const body of [event, followUp]) {
      const res = await deliver(client.webhook_token, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ received: true, kind: 'event' });
    }
    expect(await callsOf(client.id)).toHaveLength(0);
    const verified = await t.deps.db
      .selectFrom('clients')
      .select('webhook_verified_at')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(verified.webhook_verified_at).toBeNull();
  });

  it("merges Bland's delayed combined webhook (the whole call plus event_type) into the stored call", async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody({ summary: null });
    expect((await deliver(client.webhook_token, body)).statusCode).toBe(200);
    // After a transfer Bland sends the call's full details again, with an event_type.
    const combined = {
      ...body,
      event_type: 'call.transferred',
      transferred_to: '+15550001111',
      summary: 'The caller was transferred to the front desk.',
    };
    const res = await deliver(client.webhook_token, combined);
    expect(res.statusCode).toBe(200);
    expect(res.json().kind).not.toBe('event');
    const rows = await callsOf(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'transferred',
      summary: 'The caller was transferred to the front desk.',
    });
  });

  it('refuses malformed bodies with 400 and stores nothing', async () => {
    const client = await createClient(t.deps);
    const bad: unknown[] = [
      '{"call_id": ',
      '[]',
      '"just a string"',
      { to: '+1555' }, // no call_id
      blandCallBody({ call_id: '' }),
      blandCallBody({ corrected_duration: 'ninety' }),
      blandCallBody({ transcripts: 'not a list' }),
      blandCallBody({ to: 'x'.repeat(500) }),
    ];
    for (const body of bad) {
      const res = await deliver(client.webhook_token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    expect(await callsOf(client.id)).toHaveLength(0);
    // Logged as refused, with why and the body, for the admin's Support Tools.
    const logged = await deliveriesOf(client.id);
    expect(logged).toHaveLength(bad.length);
    for (const d of logged) {
      expect(d.outcome).toBe('refused');
      expect(d.detail).toEqual(expect.any(String));
      expect(d.raw_body).not.toBeNull();
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const client = await createClient(t.deps);
    const res = await deliver(client.webhook_token, blandCallBody({ summary: 'x'.repeat(1_100_000) }));
    expect(res.statusCode).toBe(413);
    expect(await callsOf(client.id)).toHaveLength(0);
  });

  it('answers 404 for an unknown token and 400 for a malformed one', async () => {
    expect((await deliver('a'.repeat(32), blandCallBody())).statusCode).toBe(404);
    expect((await deliver('short', blandCallBody())).statusCode).toBe(400);
  });

  it('files a call under the token’s client only', async () => {
    const a = await createClient(t.deps);
    const b = await createClient(t.deps);
    await deliver(a.webhook_token, blandCallBody());
    expect(await callsOf(a.id)).toHaveLength(1);
    expect(await callsOf(b.id)).toHaveLength(0);
  });

  it('refuses implausible values with a clear 400 and stores nothing', async () => {
    const client = await createClient(t.deps);
    const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ corrected_duration: '100000000' }, /corrected_duration: A call lasts between 0 and 24 hours/],
      [{ corrected_duration: '-30' }, /corrected_duration/],
      [{ call_length: 2000 }, /call_length: A call lasts between 0 and 24 hours/],
      [{ price: -5 }, /price: A call's price is between \$0 and \$1000/],
      [{ price: 250000 }, /price/],
      [{ created_at: soon }, /created_at: A call cannot start in the future/],
      [{ created_at: null, started_at: soon }, /started_at: A call cannot start in the future/],
      [{ created_at: '1970-01-01T00:00:00Z' }, /created_at: A call cannot start before the year 2000/],
      [{ created_at: '0001-01-01T00:00:00Z' }, /created_at: A call cannot start before the year 2000/],
      [{ started_at: '-010000-01-01T00:00:00Z' }, /started_at: A call cannot start before the year 2000/],
    ];
    for (const [overrides, message] of cases) {
      const res = await deliver(client.webhook_token, blandCallBody(overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await callsOf(client.id)).toHaveLength(0);
    // A day-long call at the edge is still a call.
    expect(
      (await deliver(client.webhook_token, blandCallBody({ corrected_duration: '86400' }))).statusCode,
    ).toBe(200);
  });

  it('refuses call and pathway ids that could change a provider URL', async () => {
    const client = await createClient(t.deps);
    for (const overrides of [
      { call_id: '..' },
      { call_id: '../calls' },
      { call_id: 'a/b' },
      { pathway_id: '../v1/calls' },
    ]) {
      const res = await deliver(client.webhook_token, blandCallBody(overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message).toMatch(/letters, digits/);
    }
    const event = await deliver(client.webhook_token, {
      message: 'started',
      call_id: '..',
      category: 'call',
    });
    expect(event.statusCode).toBe(400);
    expect(await callsOf(client.id)).toHaveLength(0);
    expect((await deliveriesOf(client.id)).map((d) => d.outcome)).toEqual(
      Array.from({ length: 5 }, () => 'refused'),
    );
  });

  it('checks the signature when the client has a signing secret', async () => {
    const secret = 'whsec-client-secret';
    const client = await createClient(t.deps, { webhook_secret_enc: t.deps.secrets.encrypt(secret) });
    const raw = JSON.stringify(blandCallBody());
    const good = createHmac('sha256', secret).update(raw).digest('hex');
    expect((await deliver(client.webhook_token, raw)).statusCode).toBe(401);
    expect(
      (await deliver(client.webhook_token, raw, { 'x-webhook-signature': 'f'.repeat(64) })).statusCode,
    ).toBe(401);
    expect(await callsOf(client.id)).toHaveLength(0);
    expect((await deliver(client.webhook_token, raw, { 'x-webhook-signature': good })).statusCode).toBe(200);
    expect(await callsOf(client.id)).toHaveLength(1);
  });

  it('keeps proxy legs of warm transfers out of the stats', async () => {
    const client = await createClient(t.deps);
    await deliver(client.webhook_token, blandCallBody({ transferred_to: '+15550001234' }));
    await deliver(client.webhook_token, blandCallBody({ is_proxy_agent_call: true }));
    const cookie = await loginClient(t.app, client.email);
    const stats = (
      await t.app.inject({ method: 'GET', url: '/api/client/stats', headers: { cookie } })
    ).json();
    expect(stats).toMatchObject({ totalCalls: 1, totalTransfers: 1 });
  });

  it('a call the client deleted is not brought back by a late or repeated delivery', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody();
    await deliver(client.webhook_token, body);
    const cookie = await loginClient(t.app, client.email);
    const [call] = await callsOf(client.id);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/client/calls/${call.id}`, headers: { cookie } }))
        .statusCode,
    ).toBe(200);
    expect((await deliver(client.webhook_token, body)).statusCode).toBe(200);
    expect(await callsOf(client.id)).toHaveLength(0);
  });

  it('a burst of concurrent deliveries to several clients is stored exactly, duplicates merged', async () => {
    const clients = await Promise.all([0, 1, 2].map(() => createClient(t.deps)));
    const bodies = clients.flatMap((client, c) =>
      Array.from({ length: 20 }, (_, i) => ({
        token: client.webhook_token,
        body: blandCallBody({ call_id: `burst-${c}-${i % 15}`, corrected_duration: String(30 + i) }),
      })),
    );
    // One call of each client also arrives first as a late "active" snapshot.
    for (const [c, client] of clients.entries())
      bodies.unshift({
        token: client.webhook_token,
        body: blandCallBody({
          call_id: `burst-${c}-0`,
          status: null,
          queue_status: 'started',
          completed: false,
        }),
      });
    const answers = await Promise.all(bodies.map((b) => deliver(b.token, b.body)));
    expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 200));

    for (const client of clients) {
      const stored = await callsOf(client.id);
      expect(stored).toHaveLength(15);
      expect(stored.every((c) => c.status === 'completed')).toBe(true);
      const log = await deliveriesOf(client.id);
      expect(log).toHaveLength(21);
      expect(log.filter((d) => d.outcome === 'created')).toHaveLength(15);
      const rollups = await t.deps.db
        .selectFrom('call_rollups')
        .select((eb) => [eb.fn.sum<number>('call_count').as('n'), eb.fn.sum<number>('total_seconds').as('s')])
        .where('client_id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(Number(rollups.n)).toBe(15);
      expect(Number(rollups.s)).toBe(stored.reduce((n, c) => n + c.duration_seconds, 0));
    }
  });

  it('never writes a webhook token to the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await createTestApp({ logger: { ...loggerOptions('info'), stream } });
    try {
      const client = await createClient(logged.deps);
      const res = await logged.app.inject({
        method: 'POST',
        url: `/api/webhooks/voice/${client.webhook_token}?attempt=1`,
        payload: blandCallBody(),
      });
      expect(res.statusCode).toBe(200);
      // The same route spelled with percent-encoded letters, and a token partly encoded.
      const token = client.webhook_token;
      const spelled = [
        `/api/%77ebhooks/voice/${token}`,
        `/%61pi/webhooks/%76oice/${token}`,
        `/api/webhooks/voice/%${token.charCodeAt(0).toString(16)}${token.slice(1)}`,
      ];
      for (const url of spelled) {
        const answer = await logged.app.inject({ method: 'POST', url, payload: blandCallBody() });
        expect(answer.statusCode, url).toBe(200);
      }
      const log = lines.join('');
      expect(log).toContain('/api/webhooks/voice/[redacted]');
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(1));
    } finally {
      await logged.close();
    }
  });

  it('stores a bounded copy of each body, and prunes the delivery log after the retention', async () => {
    const client = await createClient(t.deps);
    const huge = blandCallBody({ variables: { notes: 'n'.repeat(900_000) } });
    expect((await deliver(client.webhook_token, huge)).statusCode).toBe(200);
    const [call] = await callsOf(client.id);
    expect(call.transcript).not.toBeNull();
    const stored = JSON.parse(call.raw_payload ?? '{}');
    expect(Buffer.byteLength(call.raw_payload ?? '')).toBeLessThanOrEqual(16 * 1024);
    expect(stored.call_id).toBe(huge.call_id);
    expect(stored.transcripts).toBeUndefined();

    const day = 24 * 60 * 60 * 1000;
    const old = t.deps.now() - 31 * day;
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ received_at: old })
      .where('client_id', '=', client.id)
      .execute();
    expect(await deliveriesOf(client.id)).toHaveLength(1);
    expect(await pruneWebhookDeliveries(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(client.id)).toHaveLength(0);
    // The call itself stays.
    expect(await callsOf(client.id)).toHaveLength(1);
  });

  it('counts deliveries per client in the shared counters: made-up URLs leave no row, tokens never stored', async () => {
    // A second instance on the same database: closing it writes its counts out.
    const other = await buildApp(t.deps);
    const client = await createClient(t.deps);
    const madeUp = Array.from({ length: 5 }, (_, i) => `made-up-webhook-token-${i}-${'x'.repeat(20)}`);
    try {
      for (const token of madeUp) {
        const res = await other.inject({
          method: 'POST',
          url: `/api/webhooks/voice/${token}`,
          payload: blandCallBody(),
        });
        expect(res.statusCode).toBe(404);
      }
      const ok = await other.inject({
        method: 'POST',
        url: `/api/webhooks/voice/${client.webhook_token}`,
        payload: blandCallBody(),
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await other.close();
    }
    const keys = (await t.deps.db.selectFrom('rate_counters').select('key').execute()).map((r) => r.key);
    expect(keys).toContain(`webhook:${client.id}`);
    for (const token of [...madeUp, client.webhook_token]) {
      expect(keys.some((k) => k.includes(token))).toBe(false);
    }

    // Counters that count nothing any more are pruned.
    const day = 24 * 60 * 60 * 1000;
    await t.deps.db
      .insertInto('rate_counters')
      .values({
        key: 'stale:test',
        window_start: 0,
        count: 3,
        previous_count: 0,
        last_at: t.deps.now() - 3 * day,
      })
      .execute();
    expect(await pruneRateCounters(t.deps)).toBeGreaterThanOrEqual(1);
    const left = (await t.deps.db.selectFrom('rate_counters').select('key').execute()).map((r) => r.key);
    expect(left).not.toContain('stale:test');
    expect(left).toContain(`webhook:${client.id}`);
  });
});
