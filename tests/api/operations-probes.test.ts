/**
 * The probes and the metrics. /healthz answers without the database; /readyz is 503
 * until start-up is done and from SIGTERM on, and names the failing part (what each part found only
 * with the metrics token): the database stopped
 * (PostgreSQL behind a proxy that is stopped and started again; SQLite through a connection that
 * fails meanwhile), an outbox message overdue; /metrics refuses without its token and answers the
 * counters with it; METRICS_PORT serves them on loopback; the request log has one line per
 * request and none for the probes.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { type Db, openDb } from '../../src/server/db/connect';
import { loggerOptions } from '../../src/server/http/logging';
import { createNotifications } from '../../src/server/notifications';
import { enqueue } from '../../src/server/notifications/outbox';
import { startMetricsServer } from '../../src/server/operations/metrics-server';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { blandCallBody, createClientWithSimCalls, deliverWebhook } from '../helpers/bland';
import { createClient } from '../helpers/factories';
import { createScratchDatabase } from '../helpers/scratch-database';
import { createTestApp, TEST_DATABASE_URL, TEST_DB, type TestApp } from '../helpers/test-app';

const TOKEN = 'metrics-token-for-tests-0123';
/** The values of a metric's lines with exactly these labels (`{a="b"}`, or none). */
const metric = (text: string, name: string, labels = '') =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${name}${labels} `))
    .map((line) => Number(line.split(' ').at(-1)));

describe(`probes and metrics (${TEST_DB})`, () => {
  let t: TestApp;
  let sim: VoiceSim;
  const lines: string[] = [];

  beforeAll(async () => {
    sim = await startVoiceSim();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, BLAND_API_URL: sim.url, LOG_LEVEL: 'info' },
      voice: createBlandProvider({ baseUrl: sim.url }),
      logger: { ...loggerOptions('info'), stream },
    });
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const readyz = () =>
    t.app.inject({ method: 'GET', url: '/readyz', headers: { authorization: `Bearer ${TOKEN}` } });

  it('answers /healthz without the database, and /readyz only once started and until stopping', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });

    const starting = await readyz();
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toMatchObject({ ready: false, failing: ['lifecycle'] });
    expect(starting.json().checks.lifecycle).toEqual({ ok: false, detail: 'starting' });

    t.deps.lifecycle.markReady();
    const ready = await readyz();
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ ready: true, failing: [], message: 'ready' });
    expect(Object.keys(ready.json().checks)).toEqual([
      'lifecycle',
      'database',
      'migrations',
      'outbox',
      'live',
    ]);
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('answers /readyz without the metrics token with the status alone, not what each part found', async () => {
    const open = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ ready: true, failing: [], message: 'ready' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.json()).toEqual({ ready: true, failing: [], message: 'ready' });
    // With the token: the stream count and the database's answer time.
    const detailed = (await readyz()).json();
    expect(detailed.checks.live.detail).toMatch(/streams open|idle/);
    expect(detailed.checks.database.detail).toMatch(/^answered in \d+ ms$/);
  });

  it('names the outbox when a due message has waited past READY_OUTBOX_MAX_AGE_MS', async () => {
    const client = await createClient(t.deps);
    const dueAt = t.deps.now() - 2 * 60 * 60 * 1000;
    await enqueue(
      t.deps.db,
      [
        {
          clientId: client.id,
          channel: 'webhook',
          topic: 'test',
          dedupeKey: `overdue-${randomUUID()}`,
          payload: {},
        },
      ],
      dueAt,
    );
    const res = await readyz();
    expect(res.statusCode).toBe(503);
    expect(res.json().failing).toEqual(['outbox']);
    expect(res.json().message).toMatch(
      /^not ready: outbox a due message has waited 7200 s \(limit 3600 s\)$/,
    );
    const open = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(open.statusCode).toBe(503);
    expect(open.json()).toEqual({ ready: false, failing: ['outbox'], message: 'not ready: outbox' });
    // An e-mail waiting because SMTP_URL is not set here is not this instance's to send.
    await t.deps.db
      .updateTable('outbox')
      .set({ channel: 'email' })
      .where('client_id', '=', client.id)
      .execute();
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('refuses /metrics without the token, and answers every counter with it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('Bearer');

    // A delivery accepted, the same again (duplicate), one refused (bad signature).
    const secret = 'whsec_metrics_test';
    const client = await createClient(t.deps, { webhook_secret_enc: t.deps.secrets.encrypt(secret) });
    const body = JSON.stringify(blandCallBody());
    const signed = { 'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex') };
    expect((await deliverWebhook(t.app, client.webhook_token, body, signed)).statusCode).toBe(200);
    expect((await deliverWebhook(t.app, client.webhook_token, body, signed)).statusCode).toBe(200);
    expect(
      (await deliverWebhook(t.app, client.webhook_token, body, { 'x-webhook-signature': 'bad' })).statusCode,
    ).toBe(401);
    // A sync run, and an outbox send.
    const synced = await createClientWithSimCalls(t, sim, 3);
    const sync = await t.app.inject({
      method: 'POST',
      url: '/api/client/calls/sync',
      headers: { cookie: synced.cookie },
    });
    expect(sync.statusCode).toBe(200);
    const notifications = createNotifications(t.deps, () => {}, {
      webhook: async () => ({ result: 'sent' }),
    });
    await enqueue(
      t.deps.db,
      [
        {
          clientId: client.id,
          channel: 'webhook',
          topic: 'test',
          dedupeKey: `send-${randomUUID()}`,
          payload: {},
        },
      ],
      t.deps.now(),
    );
    await notifications.worker.runOnce();

    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const p = 'callanalytics_';
    expect(metric(text, `${p}provider_deliveries_total`, '{provider="bland",result="accepted"}')).toEqual([
      1,
    ]);
    expect(metric(text, `${p}provider_deliveries_total`, '{provider="bland",result="duplicate"}')).toEqual([
      1,
    ]);
    expect(metric(text, `${p}provider_deliveries_total`, '{provider="bland",result="refused"}')).toEqual([1]);
    expect(metric(text, `${p}sync_runs_total`, '{result="succeeded"}')).toEqual([1]);
    expect(metric(text, `${p}sync_run_duration_seconds_count`, '{result="succeeded"}')).toEqual([1]);
    expect(metric(text, `${p}outbox_sends_total`, '{channel="webhook",result="sent"}')).toEqual([1]);
    // The earlier test's overdue message waits (as e-mail, not sendable here), beside the calls' own.
    expect(metric(text, `${p}outbox_pending_messages`, '{channel="email"}')[0]).toBeGreaterThanOrEqual(1);
    expect(
      metric(text, `${p}outbox_oldest_pending_age_seconds`, '{channel="email"}')[0],
    ).toBeGreaterThanOrEqual(7200);
    expect(metric(text, `${p}sse_streams_open`)).toEqual([0]);
    expect(
      metric(
        text,
        `${p}http_request_duration_seconds_count`,
        '{method="POST",route="/api/webhooks/voice/:token",status="200"}',
      ),
    ).toEqual([2]);
    if (TEST_DB === 'postgres') expect(metric(text, `${p}db_pool_connections`, '{state="max"}')).toEqual([5]);
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(text, name).toContain(`\n${name} `);
    // Route patterns only: no webhook token, no id from a URL.
    expect(text).not.toContain(client.webhook_token);

    // The Grafana dashboard in docs/ reads only metrics this answer has.
    const dashboard = readFileSync(
      path.join(__dirname, '../../docs/grafana/callanalytics-operations.json'),
      'utf8',
    );
    const read = new Set(
      [...dashboard.matchAll(/\b((?:callanalytics|nodejs|process)_[a-z0-9_]+)/g)].map((m) =>
        m[1].replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    expect(read.size).toBeGreaterThan(10);
    const missing = [...read].filter((name) => !text.includes(`# TYPE ${name} `));
    // The pool gauge exists on PostgreSQL only; the backup gauges are there, empty before a backup.
    expect(
      missing.filter((name) => TEST_DB === 'postgres' || name !== 'callanalytics_db_pool_connections'),
    ).toEqual([]);
  });

  it('writes one log line per request, with its route, status, time and id, and none for the probes', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/client/calls?search=john%20smith' });
    for (const url of ['/healthz', '/readyz', '/api/health']) await t.app.inject({ method: 'GET', url });
    await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    await t.app.inject({ method: 'GET', url: '/api/brand', headers: { 'x-request-id': 'edge-7f3a' } });
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/api/client/calls?search=[redacted]',
      route: '/api/client/calls',
      status: 401,
    });
    expect(typeof requests[0].ms).toBe('number');
    expect(requests[0].reqId).toMatch(/^req-/);
    expect(requests[1]).toMatchObject({ route: '/api/brand', status: 200, reqId: 'edge-7f3a' });
    // Nothing else per request: Fastify's own "incoming request" / "request completed" are off.
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['request', 'request']);
  });
});

describe(`metrics without a token, and on METRICS_PORT (${TEST_DB})`, () => {
  it('answers 404 on the main port without METRICS_TOKEN, and the same text on the loopback port', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/METRICS_TOKEN/);
      const server = await startMetricsServer(t.deps.metrics, 0, t.app.log);
      try {
        const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
        expect(answer.status).toBe(200);
        const text = await answer.text();
        expect(text).toContain('# TYPE callanalytics_http_request_duration_seconds histogram');
        expect(text).toContain(
          'callanalytics_http_request_duration_seconds_count{method="GET",route="/metrics",status="404"} 1',
        );
        expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
      } finally {
        await server.close();
      }
    } finally {
      await t.close();
    }
  });
});

/** A TCP pass-through to PostgreSQL that can be stopped (every connection cut) and started again. */
function postgresProxy(target: URL): { url: string; start(): Promise<void>; stop(): Promise<void> } {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  let port = 0;
  const url = new URL(target.toString());
  return {
    get url() {
      url.port = String(port);
      url.hostname = '127.0.0.1';
      return url.toString();
    },
    start() {
      server = createServer((socket) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        sockets.add(socket).add(upstream);
        socket.pipe(upstream).pipe(socket);
        const drop = () => {
          socket.destroy();
          upstream.destroy();
          sockets.delete(socket);
          sockets.delete(upstream);
        };
        socket.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      const listening = server;
      return new Promise((resolve) =>
        listening.listen(port, '127.0.0.1', () => {
          port = (listening.address() as { port: number }).port;
          resolve();
        }),
      );
    },
    stop() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      return new Promise((resolve) => server?.close(() => resolve()));
    },
  };
}

/** SQLite cannot be stopped: a connection whose queries fail while `down` stands in for one. */
function failingWhileDown(db: Db): { db: Db; set(down: boolean): void } {
  let down = false;
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs) {
      if (down) throw new Error('SQLITE_IOERR: disk I/O error (simulated)');
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs) {
      return args.result;
    },
  };
  return {
    db: { ...db, db: db.db.withPlugin(plugin) },
    set: (value) => {
      down = value;
    },
  };
}

describe(`/readyz while the database is stopped (${TEST_DB})`, () => {
  let app: FastifyInstance;
  let deps: AppDeps;
  let closeDeps: () => Promise<void>;
  let stop: () => Promise<void>;
  let start: () => Promise<void>;
  let cleanup = async () => {};
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-ready-'));

  beforeAll(async () => {
    let db: Db;
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(TEST_DATABASE_URL);
      const proxy = postgresProxy(new URL(scratch.url));
      await proxy.start();
      db = openDb({ databaseUrl: proxy.url, dataDir, poolSize: 3 });
      stop = proxy.stop;
      start = proxy.start;
      cleanup = async () => {
        await proxy.stop();
        await scratch.drop();
      };
    } else {
      const failing = failingWhileDown(openDb({ databaseUrl: null, dataDir, sqliteFile: 'test.sqlite' }));
      db = failing.db;
      stop = async () => failing.set(true);
      start = async () => failing.set(false);
    }
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'ready-secret-0123456789',
      LOG_LEVEL: 'silent',
    });
    const built = await createDeps(config, { db });
    deps = built.deps;
    closeDeps = built.close;
    app = await buildApp(deps);
    await app.ready();
    deps.lifecycle.markReady();
  });
  afterAll(async () => {
    await app.close();
    await closeDeps();
    await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('turns 503 naming the database while it is stopped, and 200 once it is back', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await stop();
    const down = await app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    // No metrics token here: the status and the part's name, nothing it found.
    expect(down.json()).toEqual({ ready: false, failing: ['database'], message: 'not ready: database' });
    // Named, never described: no host, port or driver message reaches a public probe.
    expect(down.body).not.toMatch(/127\.0\.0\.1|ECONN|SQLITE/);
    // Alive all the while: a supervisor must not restart it for its database.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await start();
    let back = await app.inject({ method: 'GET', url: '/readyz' });
    // The pool drops its broken connections on first use: the probe after that finds the database.
    for (let i = 0; i < 5 && back.statusCode !== 200; i++)
      back = await app.inject({ method: 'GET', url: '/readyz' });
    expect(back.statusCode).toBe(200);
    expect(back.json().failing).toEqual([]);
  });
});
