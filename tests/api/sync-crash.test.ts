/**
 * Issue 34 point 9, end to end: the real server (src/server/main.ts) as a child process, a long
 * sync of thousands of calls against the Bland stand-in answering some reads with 429/500/503,
 * the server killed with SIGKILL mid-sync and started again. A sync right after the restart
 * answers at once and completes with exactly the provider's call count; the killed run is
 * recorded as interrupted. SQLite frees the dead lock at start; on PostgreSQL (where other
 * instances may be syncing) the dead lock is refused at once (409 naming the killed run) until its
 * heartbeat is stale, then taken over.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createDeps } from '../../src/server/bootstrap';
import { SYNC_STALE_MS } from '../../src/server/calls/ingest/sync-runs';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { countCallsOf } from '../helpers/calls';
import { cookieHeader, createClient, TEST_PASSWORD } from '../helpers/factories';
import { createScratchDatabase } from '../helpers/scratch-database';
import { TEST_DATABASE_URL, TEST_DB } from '../helpers/test-app';

const CALLS = 3_000;
const APP_SECRET = 'crash-test-secret-0123456789';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe(`a sync killed with SIGKILL mid-way, then the server restarted (${TEST_DB})`, () => {
  let sim: VoiceSim;
  let dataDir: string;
  let databaseUrl: string | null = null;
  let dropDatabase = async () => {};
  let deps: AppDeps;
  let closeDeps: () => Promise<void>;
  let clientId: string;
  let email: string;
  let server: ChildProcess | null = null;
  let port: number;
  const output: string[] = [];

  const env = () => ({
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    APP_SECRET,
    BLAND_API_URL: sim.url,
    LOG_LEVEL: 'warn',
    // The sync POST waits a quarter of this for the result, then answers 202.
    HTTP_CONNECTION_TIMEOUT_MS: '8000',
    ADMIN_USERNAME: 'crash-admin',
    ADMIN_PASSWORD: 'crash-admin-password-123',
  });

  async function startServer(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => output.push(String(d)));
    child.stderr?.on('data', (d) => output.push(String(d)));
    server = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${output.join('')}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the server did not start: ${output.join('')}`);
  }

  function kill9(): Promise<void> {
    const child = server!;
    server = null;
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  const url = (p: string) => `http://127.0.0.1:${port}${p}`;
  async function login(): Promise<string> {
    const res = await fetch(url('/api/client/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url('') },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(res.status).toBe(200);
    return cookieHeader(res.headers.getSetCookie());
  }
  const postSync = (cookie: string) =>
    fetch(url('/api/client/calls/sync'), { method: 'POST', headers: { cookie, origin: url('') } });
  const getRun = async (cookie: string, runId: string) =>
    (await fetch(url(`/api/client/calls/sync/runs/${runId}`), { headers: { cookie } })).json();
  const countCalls = () => countCallsOf(deps.db, clientId);
  /** A sync POST's result: its body (200), or the run it started followed to the end (202). */
  async function resultOf(answer: Response, cookie: string) {
    let body = await answer.json();
    if (answer.status !== 202) return body;
    const runId = body.runId;
    while (body.status === 'running' || body.runId === undefined) {
      await new Promise((r) => setTimeout(r, 250));
      body = await getRun(cookie, runId);
    }
    expect(body.status).toBe('succeeded');
    return body.result;
  }

  beforeAll(async () => {
    sim = await startVoiceSim();
    const apiKey = `crash-key-${TEST_DB}`;
    sim.addKey(apiKey);
    sim.addCalls(apiKey, {
      count: CALLS,
      spreadDays: 20,
      overrides: { status: 'completed', completed: true, queue_status: 'complete', transferred_to: null },
    });
    dataDir = mkdtempSync(path.join(tmpdir(), 'cap-crash-'));
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(TEST_DATABASE_URL);
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    }
    port = await freePort();
    // The test's own connection: migrates the database, creates the client, and looks inside.
    const built = await createDeps(
      loadConfig({
        DATA_DIR: dataDir,
        APP_SECRET,
        BLAND_API_URL: sim.url,
        LOG_LEVEL: 'silent',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      }),
    );
    deps = built.deps;
    closeDeps = built.close;
    const client = await createClient(deps, {
      bland_api_key_enc: deps.secrets.encrypt(apiKey),
      api_key_status: 'valid',
    });
    clientId = client.id;
    email = client.email;
  }, 120_000);

  afterAll(async () => {
    if (server) await kill9();
    await closeDeps?.();
    await dropDatabase();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after kill -9 mid-sync and a restart, a sync answers at once and completes with the exact call count', async () => {
    await startServer();
    let cookie = await login();
    // About one read in twelve fails (429, 500, 503 in turn) and is retried.
    sim.state.readFaults = { every: 12, statuses: [429, 500, 503], reads: 0, answered: 0 };

    const first = await postSync(cookie);
    expect(first.status).toBe(202);
    const { runId: killedRun } = await first.json();
    // Let it store some calls, then kill the server where it stands.
    const deadline = Date.now() + 60_000;
    while ((await countCalls()) < 1_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const before = await countCalls();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(CALLS);
    await kill9();
    expect(
      (
        await deps.db
          .selectFrom('sync_runs')
          .select('status')
          .where('id', '=', killedRun)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('running');

    await startServer();
    cookie = await login(); // a new session is not needed, but a fresh login after a restart is what people do
    const started = Date.now();
    let answer = await postSync(cookie);
    expect(Date.now() - started).toBeLessThan(5_000);
    if (TEST_DB === 'sqlite') {
      // One process: the lock the killed server held was freed at start.
      expect([200, 202]).toContain(answer.status);
    } else {
      // Another instance could hold it: refused at once, naming the killed run, until its heartbeat is stale.
      const refusedAt = Date.now();
      while (answer.status === 409) {
        const busy = await answer.json();
        expect(busy.runId).toBe(killedRun);
        expect(Date.now() - refusedAt).toBeLessThan(SYNC_STALE_MS + 10_000);
        await new Promise((r) => setTimeout(r, 1_000));
        answer = await postSync(cookie);
      }
      expect([200, 202]).toContain(answer.status);
    }
    const body = await resultOf(answer, cookie);
    expect(body).toMatchObject({ success: true });
    expect(await countCalls()).toBe(CALLS);
    const retried = Object.values((body.retried ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(retried).toBeGreaterThan(0);

    const killed = await deps.db
      .selectFrom('sync_runs')
      .select(['status', 'error', 'finished_at'])
      .where('id', '=', killedRun)
      .executeTakeFirstOrThrow();
    expect(killed.status).toBe('interrupted');
    expect(killed.finished_at).not.toBeNull();
    // The lock is free again: another sync runs and finds nothing new.
    sim.state.readFaults = null;
    // Usually 200 at once; 202 when the run above left calls unfetched (their details failed
    // past the adapter's retries) and this one reads them again, longer than the POST waits.
    const again = await postSync(cookie);
    expect([200, 202]).toContain(again.status);
    expect(await resultOf(again, cookie)).toMatchObject({ success: true, created: 0 });
    expect(await countCalls()).toBe(CALLS);
  }, 240_000);
});
