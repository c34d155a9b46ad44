/**
 * DESIGN §10: two app instances on one database behave as one. Each instance has its own
 * connection pool and process-local state; everything that matters lives in the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import {
  checkAnswersAgainstDescription,
  type DescriptionCheck,
  expectNoUndescribedAnswers,
} from '../helpers/api-description-check';
import { blandCallBody } from '../helpers/bland';
import { createClient, loginClient, TEST_PASSWORD } from '../helpers/factories';
import { createTestDb, TEST_DB, type TestDb } from '../helpers/test-app';

describe(`two app instances on one database (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let testDb: TestDb;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  const described: DescriptionCheck[] = [];
  const closers: (() => Promise<void>)[] = [];
  let deps: AppDeps;

  beforeAll(async () => {
    sim = await startVoiceSim();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cap-multi-'));
    testDb = await createTestDb(dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'shared-secret-0123456789',
      BLAND_API_URL: sim.url,
      LOG_LEVEL: 'silent',
    });
    for (const db of [testDb.db, testDb.reopen()]) {
      const built = await createDeps(config, { db, voice: createBlandProvider({ baseUrl: sim.url }) });
      const app = await buildApp(built.deps);
      described.push(checkAnswersAgainstDescription(app));
      apps.push(app);
      closers.push(built.close);
      deps ??= built.deps;
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const check of described) expectNoUndescribedAnswers(check);
    for (const close of closers) await close();
    await testDb.drop();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an instance started with another APP_SECRET refuses to start, in one line naming APP_SECRET', async () => {
    const other = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'a-different-secret-9876543210',
      BLAND_API_URL: sim.url,
      LOG_LEVEL: 'silent',
    });
    const db = testDb.reopen();
    // createDeps closes the database it opened itself; this one is ours to close.
    await expect(createDeps(other, { db: { ...db, close: async () => {} } })).rejects.toThrow(
      /^APP_SECRET does not match the one this database was set up with/,
    );
    await db.close();
  });

  it('a session opened on one instance works on the other, and logout on either ends it', async () => {
    const client = await createClient(deps);
    const cookie = await loginClient(apps[0], client.email);
    expect(
      (await apps[1].inject({ method: 'GET', url: '/api/client/session', headers: { cookie } })).statusCode,
    ).toBe(200);
    await apps[1].inject({ method: 'POST', url: '/api/client/logout', headers: { cookie } });
    expect(
      (await apps[0].inject({ method: 'GET', url: '/api/client/session', headers: { cookie } })).statusCode,
    ).toBe(401);
  });

  it('failed-login limits count across instances', async () => {
    const client = await createClient(deps);
    for (let i = 0; i < 10; i++) {
      const app = apps[i % 2];
      await app.inject({
        method: 'POST',
        url: '/api/client/login',
        payload: { email: client.email, password: 'wrong' },
        remoteAddress: '10.9.9.9',
      });
    }
    const res = await apps[0].inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email: client.email, password: TEST_PASSWORD },
      remoteAddress: '10.9.9.9',
    });
    expect(res.statusCode).toBe(429);
  });

  it('the per-URL webhook limit holds across instances', async () => {
    const limited = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'shared-secret-0123456789',
      BLAND_API_URL: sim.url,
      LOG_LEVEL: 'silent',
      WEBHOOK_DELIVERIES_PER_MINUTE: '6',
    });
    const pair: FastifyInstance[] = [];
    const dbs = [testDb.reopen(), testDb.reopen()];
    try {
      for (const db of dbs) {
        const built = await createDeps(limited, { db: { ...db, close: async () => {} } });
        pair.push(await buildApp(built.deps));
      }
      const client = await createClient(deps);
      const send = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: `/api/webhooks/voice/${client.webhook_token}`,
          payload: blandCallBody(),
        });
      for (let i = 0; i < 4; i++) expect((await send(pair[0])).statusCode).toBe(200);
      // The first instance's counts reach the shared counter on its next flush (once a second;
      // later on a loaded machine, so wait for them rather than for a fixed time).
      await vi.waitFor(
        async () =>
          expect(await deps.rateCounters.peek(`webhook:${client.id}`, 60_000)).toBeGreaterThanOrEqual(3.9),
        { timeout: 15_000, interval: 100 },
      );
      const second = [];
      for (let i = 0; i < 4; i++) second.push((await send(pair[1])).statusCode);
      expect(second.slice(0, 2)).toEqual([200, 200]);
      expect(second.slice(2)).toEqual([429, 429]);
    } finally {
      for (const app of pair) await app.close();
      for (const db of dbs) await db.close();
    }
  });

  it('the same webhook delivered to both instances at once is stored once', async () => {
    const client = await createClient(deps);
    const body = JSON.stringify(blandCallBody());
    const send = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: `/api/webhooks/voice/${client.webhook_token}`,
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
    const answers = await Promise.all([send(apps[0]), send(apps[1]), send(apps[0]), send(apps[1])]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await deps.db.selectFrom('calls').select('id').where('client_id', '=', client.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('syncs of one client started on both instances: one runs, the other says so; every call stored once', async () => {
    const apiKey = `multi-${TEST_DB}`;
    sim.addCalls(apiKey, { count: 25 });
    const client = await createClient(deps, { bland_api_key_enc: deps.secrets.encrypt(apiKey) });
    const cookie = await loginClient(apps[0], client.email);
    const results = await Promise.all(
      apps.map((app) => app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } })),
    );
    // One instance runs the sync; the other answers at once that it is running, or,
    // when the first has already finished, runs a second sync that finds nothing new.
    const statuses = results.map((r) => r.statusCode).sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const done = results.filter((r) => r.statusCode === 200);
    expect(done.reduce((n, r) => n + r.json().created, 0)).toBe(25);
    for (const busy of results.filter((r) => r.statusCode === 409))
      expect(busy.json().message).toMatch(/already running|still running/);
    const rows = await deps.db.selectFrom('calls').select('id').where('client_id', '=', client.id).execute();
    expect(rows).toHaveLength(25);
  });
});
