/**
 * Kill -TERM during a burst of provider deliveries, on the real server
 * (src/server/main.ts as a child process). /readyz turns 503 at once; the live stream gets its
 * `end` event; every delivery the server acknowledged is stored; the client webhooks those calls
 * caused are each sent exactly once, across the stop and the next start: the sends in flight at
 * SIGTERM (a slow receiver holds them) finish and are recorded before the process exits 0, so no
 * lease is left for another start to send again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { saveWebhookEndpoint } from '../../src/server/notifications/client-webhooks';
import { blandCallBody } from '../helpers/bland';
import { cookieHeader, createClient, TEST_PASSWORD } from '../helpers/factories';
import { createScratchDatabase } from '../helpers/scratch-database';
import { TEST_DATABASE_URL, TEST_DB } from '../helpers/test-app';

const APP_SECRET = 'graceful-stop-secret-0123456789';
const SIGNING_SECRET = 'whsec_graceful_stop_test';
const BURST = 160;
const SENDERS = 16;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe(`kill -TERM during a webhook burst (${TEST_DB})`, () => {
  let dataDir: string;
  let databaseUrl: string | null = null;
  let dropDatabase = async () => {};
  let deps: AppDeps;
  let closeDeps: () => Promise<void>;
  let receiver: Server;
  let receiverUrl: string;
  const eventIds: string[] = [];
  let server: ChildProcess | null = null;
  let port: number;
  let output = '';
  let client: { id: string; email: string; webhook_token: string };

  const url = (p: string) => `http://127.0.0.1:${port}${p}`;

  async function startServer(): Promise<void> {
    output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        APP_SECRET,
        LOG_LEVEL: 'info',
        OUTBOX_INTERVAL_MS: '200',
        CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1',
        SHUTDOWN_DELAY_MS: '1000',
        SHUTDOWN_TIMEOUT_MS: '20000',
        LIVE_HEARTBEAT_MS: '60000',
        BACKUP_SCHEDULE: 'off',
        ADMIN_USERNAME: 'stop-admin',
        ADMIN_PASSWORD: 'stop-admin-password-123',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => {
      output += String(d);
    });
    child.stderr?.on('data', (d) => {
      output += String(d);
    });
    server = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
      // Ready, not just alive: start-up work done.
      const status = await fetch(url('/readyz')).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the server did not become ready: ${output}`);
  }

  function exited(child: ChildProcess): Promise<number | null> {
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  async function pending(): Promise<number> {
    const row = await deps.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel', '=', 'webhook')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  beforeAll(async () => {
    // A slow receiver: each client webhook takes 100 ms to answer, so sends are in flight at SIGTERM.
    receiver = createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      req.resume();
      req.on('end', () => {
        setTimeout(() => {
          eventIds.push(id);
          res.writeHead(200).end();
        }, 100);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'cap-stop-'));
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(TEST_DATABASE_URL);
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    }
    port = await freePort();
    const built = await createDeps(
      loadConfig({
        DATA_DIR: dataDir,
        APP_SECRET,
        LOG_LEVEL: 'silent',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      }),
    );
    deps = built.deps;
    closeDeps = built.close;
    client = await createClient(deps, { webhook_secret_enc: deps.secrets.encrypt(SIGNING_SECRET) });
    await saveNotificationPrefs(
      deps.db,
      client.id,
      {
        emailNotifications: false,
        smsNotifications: false,
        webhookNotifications: true,
        monthlyReports: false,
      },
      deps.now(),
    );
    await saveWebhookEndpoint(deps.db, deps.secrets, client.id, { url: receiverUrl }, deps.now());
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    await closeDeps?.();
    await dropDatabase();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every acknowledged delivery, ends streams, and sends each webhook once across a restart', async () => {
    await startServer();
    const login = await fetch(url('/api/client/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url('') },
      body: JSON.stringify({ email: client.email, password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = cookieHeader(login.headers.getSetCookie());
    const stream = await fetch(url('/api/client/events'), { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let streamed = '';
    const streamEnded = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        streamed += Buffer.from(value).toString('utf8');
      }
    })().catch(() => {});

    // The burst: SENDERS at a time until BURST deliveries have been tried.
    const acknowledged: string[] = [];
    const refused: number[] = [];
    let next = 0;
    let terminated = false;
    const child = server as ChildProcess;
    const send = async () => {
      while (next < BURST) {
        next++;
        const body = JSON.stringify(blandCallBody());
        const signature = createHmac('sha256', SIGNING_SECRET).update(body).digest('hex');
        const answer = await fetch(url(`/api/webhooks/voice/${client.webhook_token}`), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
          body,
        }).then(
          async (r) => ({ status: r.status, json: r.status === 200 ? await r.json() : null }),
          () => ({ status: 0, json: null }),
        );
        if (answer.status === 200) acknowledged.push(answer.json.callId);
        else refused.push(answer.status);
        if (!terminated && acknowledged.length >= 40) {
          terminated = true;
          child.kill('SIGTERM');
        }
      }
    };
    const senders = Array.from({ length: SENDERS }, send);
    // Not ready from the signal on, while it still serves for SHUTDOWN_DELAY_MS.
    while (!terminated) await new Promise((r) => setTimeout(r, 5));
    let readiness = await fetch(url('/readyz'));
    for (let i = 0; i < 50 && readiness.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 10));
      readiness = await fetch(url('/readyz'));
    }
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ ready: false, failing: ['lifecycle'] });
    await Promise.all(senders);
    expect(await exited(child)).toBe(0);
    await streamEnded;
    expect(output).toMatch(/stopping \(SIGTERM\)/);
    expect(output).toMatch(/stopped in \d+ ms/);
    expect(streamed).toContain('event: end\ndata: {"reason":"restarting"}');

    // Every acknowledged delivery is stored; what was refused meanwhile (503, or no connection) was not acknowledged.
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(refused.every((s) => s === 503 || s === 0)).toBe(true);
    const stored = await deps.db
      .selectFrom('calls')
      .select('provider_call_id')
      .where('client_id', '=', client.id)
      .execute();
    const storedIds = new Set(stored.map((c) => c.provider_call_id));
    expect(acknowledged.filter((id) => !storedIds.has(id))).toEqual([]);

    // No send was left leased: every webhook message is sent or still waiting, none claimed.
    const leased = await deps.db
      .selectFrom('outbox')
      .select('id')
      .where('channel', '=', 'webhook')
      .where('status', '=', 'pending')
      .where('claimed_until', '>', Date.now())
      .execute();
    expect(leased).toEqual([]);

    // Started again, the rest is sent; each event exactly once.
    await startServer();
    const deadline = Date.now() + 60_000;
    while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await pending()).toBe(0);
    const again = server as ChildProcess;
    again.kill('SIGTERM');
    expect(await exited(again)).toBe(0);
    const messages = await deps.db
      .selectFrom('outbox')
      .select(['id', 'status'])
      .where('channel', '=', 'webhook')
      .execute();
    expect(messages.length).toBe(stored.length);
    expect(messages.every((m) => m.status === 'sent')).toBe(true);
    expect(eventIds.length).toBe(stored.length);
    expect(new Set(eventIds).size).toBe(eventIds.length);
  }, 180_000);
});
