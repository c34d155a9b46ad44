/**
 * Issue 34.1's scenario: how long another client's call event takes to reach its endpoint while
 * one client's endpoint hangs (accepts, never answers) with 100 of its messages due ("Send again"
 * pressed 100 times), beside a baseline with no hanging client. The worker runs as in production
 * (its job, OUTBOX_INTERVAL_MS's default), so each latency includes the wait for the next look.
 *
 * `npm run bench -- --outbox-fairness` (BENCH_DB=sqlite|postgres for one), or run this file:
 * `tsx bench/outbox-fairness.ts`. Prints its rows; does not write RESULTS.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saveNotificationPrefs } from '../src/server/account/notification-prefs';
import { createDeps } from '../src/server/bootstrap';
import { loadConfig } from '../src/server/config';
import { type Db, openDb } from '../src/server/db/connect';
import { startJob } from '../src/server/http/jobs';
import { createNotifications } from '../src/server/notifications';
import { saveWebhookEndpoint } from '../src/server/notifications/client-webhooks';
import { enqueue } from '../src/server/notifications/outbox';
import { storeCalls } from '../tests/helpers/calls';
import { createClient } from '../tests/helpers/factories';
import { createScratchDatabase } from '../tests/helpers/scratch-database';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** B's events per phase, one at a time, each after a random pause (so they fall anywhere between the worker's looks). */
const EVENTS = Number(process.env.BENCH_FAIRNESS_EVENTS ?? 12);
const TARGET_MS = 5_000;

export interface FairnessRow {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
};

export async function outboxFairnessRows(dialect: 'sqlite' | 'postgres'): Promise<FairnessRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-fairness-'));
  let database: Db;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const scratch = await createScratchDatabase(PG_URL, 'bench_fairness');
    database = openDb({ databaseUrl: scratch.url, dataDir, poolSize: 10 });
    dropDatabase = scratch.drop;
  } else {
    database = openDb({ databaseUrl: null, dataDir });
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-0123456789',
    LOG_LEVEL: 'silent',
    CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1',
  });
  const { deps, close } = await createDeps(config, { db: database });

  // A: takes every request, never answers.
  let aOpen = 0;
  let aMaxOpen = 0;
  let aRequests = 0;
  const hanging = createServer((req, res) => {
    aRequests++;
    aOpen++;
    aMaxOpen = Math.max(aMaxOpen, aOpen);
    req.resume();
    res.on('close', () => aOpen--);
  });
  // B: answers at once; each arrival settles the wait for that call's event.
  const waiting = new Map<string, (at: number) => void>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      waiting.get(event.call?.providerCallId)?.(performance.now());
    });
  });
  const [hangingUrl, receiverUrl] = [await listen(hanging), await listen(receiver)];
  const prefs = {
    emailNotifications: false,
    smsNotifications: false,
    webhookNotifications: true,
    monthlyReports: false,
  };
  const hook = async (url: string) => {
    const client = await createClient(deps);
    await saveNotificationPrefs(deps.db, client.id, prefs, deps.now());
    await saveWebhookEndpoint(deps.db, deps.secrets, client.id, { url }, deps.now());
    return client;
  };
  const a = await hook(hangingUrl);
  const b = await hook(receiverUrl);

  const notifications = createNotifications(deps, () => {});
  const stopOutbox = startJob(notifications.worker.job(config.outboxIntervalMs), () => {});

  /** B's latencies: from the call stored (its event queued) to the event at B's endpoint. */
  async function phase(name: string): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      await sleep(Math.random() * 1000);
      const id = `${name}-${i}`;
      const arrived = new Promise<number>((resolve) => waiting.set(id, resolve));
      const start = performance.now();
      await storeCalls(deps, b, [
        { providerCallId: id, status: 'completed', durationSeconds: 30, createdAt: Date.now() - 1000 },
      ]);
      const at = await Promise.race([arrived, sleep(120_000).then(() => Number.NaN)]);
      latencies.push(at - start);
    }
    return latencies;
  }

  const baseline = await phase('baseline');
  // "Send again" pressed 100 times toward A's hanging endpoint: all due, all older than B's events.
  await enqueue(
    deps.db,
    Array.from({ length: 100 }, (_, i) => ({
      clientId: a.id,
      channel: 'webhook' as const,
      topic: 'test',
      dedupeKey: `bench:fairness:a:${i}`,
      payload: {},
    })),
    deps.now() - 60_000,
  );
  const withHanging = await phase('hanging');
  stopOutbox();
  notifications.close();
  hanging.closeAllConnections();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });

  const sorted = (v: number[]) => [...v].sort((x, y) => x - y);
  const p50 = (v: number[]) => sorted(v)[Math.floor(v.length / 2)];
  const max = (v: number[]) => sorted(v)[v.length - 1];
  const fmt = (v: number) => (Number.isNaN(v) ? 'not delivered' : `${(v / 1000).toFixed(2)} s`);
  const interval = `${config.outboxIntervalMs / 1000} s`;
  return [
    {
      what: `baseline: B's call event at its endpoint, no hanging client, max of ${EVENTS} (p50 ${fmt(p50(baseline))}; worker looks every ${interval})`,
      value: fmt(max(baseline)),
      target: '-',
      ok: null,
    },
    {
      what: `B's call event with A's endpoint hanging and 100 of A's messages due, max of ${EVENTS} (p50 ${fmt(p50(withHanging))}; A: ${aRequests} requests, at most ${aMaxOpen} at once)`,
      value: fmt(max(withHanging)),
      target: `≤ ${TARGET_MS / 1000} s`,
      ok: withHanging.every((v) => v <= TARGET_MS),
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.env.BENCH_DB;
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (which && which !== dialect) continue;
    for (const r of await outboxFairnessRows(dialect))
      console.log(
        `[${dialect}] ${r.what}: ${r.value} ${r.target} ${r.ok === null ? '' : r.ok ? 'ok' : 'MISSED'}`,
      );
  }
  process.exit(0);
}
