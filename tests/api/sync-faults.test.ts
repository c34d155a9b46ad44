/**
 * Issue 34 point 9: sync under provider faults and after a crash, in process. A busy lock answers
 * at once with who holds it; a long sync answers 202 and is followed to its end; a dead process's
 * lock and runs are recovered (at start on SQLite, by an expired heartbeat on PostgreSQL); provider
 * errors that were retried are counted per status in the result and the history. The kill -9 test
 * with the real server is sync-crash.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { SYNC_STALE_MS } from '../../src/server/calls/ingest/sync-runs';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { checkAnswersAgainstDescription, expectNoUndescribedAnswers } from '../helpers/api-description-check';
import { createClientWithSimCalls } from '../helpers/bland';
import { countCallsOf } from '../helpers/calls';
import { createAdminUser, loginAdmin } from '../helpers/factories';
import { followSyncRun, postSync, syncResult } from '../helpers/sync';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const provider = (url: string) =>
  createBlandProvider({ baseUrl: url, timeoutMs: 5_000, retryBaseMs: 5, maxRetries: 2 });

describe(`sync under provider faults and after a crash (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let t: TestApp;
  let adminCookie: string;

  beforeAll(async () => {
    sim = await startVoiceSim();
    // The POST waits a quarter of the idle-socket timeout for the result: 1 s here.
    t = await createTestApp({
      env: { BLAND_API_URL: sim.url, HTTP_CONNECTION_TIMEOUT_MS: '4000' },
      voice: provider(sim.url),
    });
    const admin = await createAdminUser(t.deps);
    adminCookie = await loginAdmin(t.app, admin.username);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });
  beforeEach(() => {
    sim.setMode('normal');
    sim.state.failingDetails.clear();
  });

  const clientWithKey = (calls = 0) => createClientWithSimCalls(t, sim, calls);
  const countCalls = (clientId: string) => countCallsOf(t.deps.db, clientId);
  const history = async (clientId: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/clients/${clientId}/sync-runs`,
        headers: { cookie: adminCookie },
      })
    ).json().items;
  /** A second app on the same database: the server after a restart. */
  async function restart() {
    const built = await createDeps(t.config, { db: t.reopenDb(), voice: provider(sim.url) });
    const app = await buildApp(built.deps);
    const described = checkAnswersAgainstDescription(app);
    await app.ready();
    return {
      app,
      deps: built.deps,
      close: async () => {
        await app.close();
        expectNoUndescribedAnswers(described);
        await built.close();
      },
    };
  }
  async function insertRun(clientId: string, heartbeatAgoMs: number) {
    const id = randomUUID();
    const now = Date.now();
    await t.deps.db
      .insertInto('sync_runs')
      .values({
        id,
        client_id: clientId,
        started_by: 'client',
        started_at: now - heartbeatAgoMs - 60_000,
        finished_at: null,
        error: null,
        status: 'running',
        heartbeat_at: now - heartbeatAgoMs,
        retried: null,
      })
      .execute();
    return id;
  }
  const holdLock = (clientId: string, until: number) =>
    t.deps.db
      .insertInto('leases')
      .values({ name: `sync:${clientId}`, owner: 'a-dead-instance', until })
      .onConflict((oc) => oc.column('name').doUpdateSet({ owner: 'a-dead-instance', until }))
      .execute();

  it('a long sync answers 202 at once and is followed to its result; a second sync meanwhile is refused at once with who holds it', async () => {
    const { client, cookie } = await clientWithKey(30);
    sim.setMode('slow', { slowMs: 1_500, times: 2 });
    const first = await postSync(t.app, cookie);
    expect(first.statusCode).toBe(202);
    const started = first.json();
    expect(started).toMatchObject({ status: 'running', runId: expect.any(String) });
    expect(started.message).toMatch(/^Syncing in the background/);

    const before = Date.now();
    const second = await postSync(t.app, cookie);
    expect(Date.now() - before).toBeLessThan(1_000);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      runId: started.runId,
      startedBy: 'The client',
      startedAt: started.startedAt,
    });
    expect(second.json().message).toMatch(
      /^A sync of this account is already running: started by the client at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    );

    const done = await followSyncRun(t.app, cookie, started.runId);
    expect(done).toMatchObject({
      status: 'succeeded',
      created: 30,
      result: { success: true, created: 30, updated: 0 },
    });
    expect(done.result.message).toBe('Synced 30 calls from the call service (30 new, 0 updated)');
    expect(await countCalls(client.id)).toBe(30);
    // Once finished, the lock is free again.
    expect((await postSync(t.app, cookie)).json()).toMatchObject({ success: true, created: 0 });
  }, 30_000);

  it("the admin's Sync now is the same: 202 for a long sync, followed under the admin path, audited once it succeeded", async () => {
    const { client } = await clientWithKey(20);
    sim.setMode('slow', { slowMs: 1_500, times: 2 });
    const admin = (method: 'GET' | 'POST', url: string) =>
      t.app.inject({ method, url, headers: { cookie: adminCookie } });
    const started = await admin('POST', `/api/admin/clients/${client.id}/sync`);
    expect(started.statusCode).toBe(202);
    const { runId } = started.json();
    expect((await admin('POST', `/api/admin/clients/${client.id}/sync`)).statusCode).toBe(409);
    // Another client's path does not find this run.
    const other = await clientWithKey(0);
    expect((await admin('GET', `/api/admin/clients/${other.client.id}/sync/runs/${runId}`)).statusCode).toBe(
      404,
    );
    let progress = started.json();
    for (let i = 0; i < 400 && progress.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const res = await admin('GET', `/api/admin/clients/${client.id}/sync/runs/${runId}`);
      expect(res.statusCode).toBe(200);
      progress = res.json();
    }
    expect(progress).toMatchObject({ status: 'succeeded', result: { created: 20 } });
    expect(await countCalls(client.id)).toBe(20);
    const [run] = await history(client.id);
    expect(run.startedBy).toBe('Ada Admin');
    // The audit row follows the run's end (written when the sync has succeeded).
    const auditUrl = `/api/admin/audit?action=client.sync&clientId=${client.id}`;
    let audit = (await admin('GET', auditUrl)).json();
    for (let i = 0; i < 40 && audit.items.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      audit = (await admin('GET', auditUrl)).json();
    }
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0].detail).toEqual({ created: 20, updated: 0 });
  }, 30_000);

  it('a run id of another client is not found', async () => {
    const a = await clientWithKey(1);
    const b = await clientWithKey(1);
    await syncResult(t.app, a.cookie);
    const [run] = await history(a.client.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/client/calls/sync/runs/${run.id}`,
      headers: { cookie: b.cookie },
    });
    expect(res.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/client/calls/sync/runs/nope',
      headers: { cookie: b.cookie },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('retried provider errors are counted per status in the result and the sync history', async () => {
    const { apiKey, client, cookie } = await clientWithKey(12);
    const ids = (sim.state.accounts.get(apiKey)?.calls ?? []).map((c) => c.details.call_id);
    // Each fails once, then answers: every error is retried once (maxRetries 2).
    for (const id of ids.slice(0, 3)) sim.state.failingDetails.set(id, { status: 429, times: 1 });
    for (const id of ids.slice(3, 5)) sim.state.failingDetails.set(id, { status: 500, times: 1 });
    // This one fails twice: two retries, then it answers.
    sim.state.failingDetails.set(ids[5], { status: 503, times: 2 });
    const result = await syncResult(t.app, cookie);
    expect(result).toMatchObject({
      success: true,
      created: 12,
      retried: { '429': 3, '500': 2, '503': 2 },
    });
    expect(result.unfetched).toBeUndefined();
    expect(await countCalls(client.id)).toBe(12);
    const [run] = await history(client.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      created: 12,
      retried: { '429': 3, '500': 2, '503': 2 },
    });

    // A clean sync has no retried errors to show.
    expect((await syncResult(t.app, cookie)).retried).toBeUndefined();
    expect((await history(client.id))[0]).toMatchObject({ status: 'succeeded', retried: {} });
  });

  it('errors the stand-in injects into every few reads (429/500/503) are retried and counted', async () => {
    const { client, cookie } = await clientWithKey(40);
    const set = await fetch(`${sim.url}/_sim/read-faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ every: 7 }),
    });
    expect(set.status).toBe(200);
    try {
      const result = await syncResult(t.app, cookie);
      expect(result).toMatchObject({ success: true, created: 40 });
      const faults = sim.state.readFaults!;
      const counted = Object.values(result.retried as Record<string, number>).reduce((a, b) => a + b, 0);
      // Every injected fault is either retried (counted per status) or, when a detail read meets
      // faults on all its tries, the last one leaves that call for the next sync (unfetched).
      expect(counted + (result.unfetched ?? 0)).toBe(faults.answered);
      expect(Object.keys(result.retried).sort()).toEqual(['429', '500', '503']);
      expect(await countCalls(client.id)).toBe(40);
    } finally {
      sim.state.readFaults = null;
    }
  });

  it('a lock whose holder stopped renewing it is taken over, and the dead run marked interrupted', async () => {
    const { client, cookie } = await clientWithKey(5);
    const dead = await insertRun(client.id, SYNC_STALE_MS + 5_000);
    await holdLock(client.id, Date.now() - 5_000);
    expect(await syncResult(t.app, cookie)).toMatchObject({ success: true, created: 5 });
    const runs = await history(client.id);
    expect(runs.find((r: { id: string }) => r.id === dead)).toMatchObject({
      status: 'interrupted',
      error: expect.stringMatching(/^Interrupted: the server stopped before this sync finished/),
      finishedAt: expect.any(String),
    });
  });

  it('a lock renewed moments ago is busy: answered at once, naming the run', async () => {
    const { client, cookie } = await clientWithKey(1);
    const live = await insertRun(client.id, 1_000);
    await holdLock(client.id, Date.now() + SYNC_STALE_MS - 1_000);
    const before = Date.now();
    const res = await postSync(t.app, cookie);
    expect(Date.now() - before).toBeLessThan(1_000);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ runId: live, startedBy: 'The client' });
    await t.deps.db.updateTable('sync_runs').set({ status: 'failed' }).where('id', '=', live).execute();
  });

  it('at start, runs left by a stopped server are marked interrupted and its locks freed', async () => {
    const { client, cookie } = await clientWithKey(3);
    const stale = await insertRun(client.id, SYNC_STALE_MS + 60_000);
    // Renewed a second ago: on PostgreSQL another instance may be running it.
    const recent = await insertRun(client.id, 1_000);
    await holdLock(client.id, Date.now() + SYNC_STALE_MS - 1_000);

    const after = await restart();
    try {
      const status = async (id: string) =>
        (
          await t.deps.db
            .selectFrom('sync_runs')
            .select(['status', 'error'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      expect(await status(stale)).toBe('interrupted');
      if (TEST_DB === 'sqlite') {
        // One process: everything running was the previous one's, and its lock is free at once.
        expect(await status(recent)).toBe('interrupted');
        expect(await syncResult(after.app, cookie)).toMatchObject({ success: true, created: 3 });
      } else {
        // Another instance may hold it: free only once its heartbeat is stale.
        expect(await status(recent)).toBe('running');
        expect((await postSync(after.app, cookie)).statusCode).toBe(409);
        await holdLock(client.id, Date.now() - 1);
        expect(await syncResult(after.app, cookie)).toMatchObject({ success: true, created: 3 });
        expect(await status(recent)).toBe('interrupted');
      }
    } finally {
      await after.close();
    }
  });

  it('a server that closes mid-sync records the run as interrupted and frees the lock', async () => {
    const { client, cookie } = await clientWithKey(20);
    const other = await restart();
    try {
      sim.setMode('slow', { slowMs: 800, times: 3 });
      const res = await postSync(other.app, cookie);
      expect(res.statusCode).toBe(202);
      await other.app.close();
      const run = await t.deps.db
        .selectFrom('sync_runs')
        .select(['status', 'error'])
        .where('id', '=', res.json().runId)
        .executeTakeFirstOrThrow();
      expect(run.status).toBe('interrupted');
      const lock = await t.deps.db
        .selectFrom('leases')
        .select('owner')
        .where('name', '=', `sync:${client.id}`)
        .executeTakeFirst();
      expect(lock?.owner ?? null).toBeNull();
    } finally {
      await other.close().catch(() => {});
    }
    sim.setMode('normal');
    expect((await postSync(t.app, cookie)).json()).toMatchObject({ success: true });
    expect(await countCalls(client.id)).toBe(20);
  }, 30_000);
});
