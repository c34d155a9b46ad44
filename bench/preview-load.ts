/**
 * Issue 34.3 under load: /api/health's latency while one client runs the worst outcome preview it
 * can send (every outcome and rule the schema allows, each a `contains` on the transcript, over
 * calls of about 900 KB), beside the same health requests with nothing else running. Target: p99
 * under 100 ms. Hooked into `npm run bench` (bench/run.ts, SQLite and PostgreSQL sections) and
 * runnable alone on a small app of its own, both databases (BENCH_DB=sqlite|postgres for one):
 * `npx tsx bench/preview-load.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_OUTCOMES, MAX_RULES_PER_OUTCOME, type Outcome } from '../src/contract/outcomes';
import { buildApp } from '../src/server/app';
import { createDeps } from '../src/server/bootstrap';
import { createCallsRepository } from '../src/server/calls/write/calls-repository';
import { loadConfig } from '../src/server/config';
import type { AppDeps } from '../src/server/context';
import { openDb } from '../src/server/db/connect';
import { PREVIEWS_PER_MINUTE } from '../src/server/outcomes/preview';
import { NO_INSIGHTS } from '../src/server/providers/voice/types';
import { makeCall } from '../tests/helpers/calls';
import { createClient, TEST_PASSWORD } from '../tests/helpers/factories';
import { createScratchDatabase } from '../tests/helpers/scratch-database';

interface Row {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

const BIG_CALLS = 40;
const HEALTH_TARGET_MS = 100;
const LINE = 'The caller asked about the Invoice and the agent answered kindly about the refund. ';

const worstList: Outcome[] = Array.from({ length: MAX_OUTCOMES }, (_, o) => ({
  name: `Outcome ${o}`,
  color: '#16a34a',
  value: null,
  needsAttention: false,
  notify: false,
  rules: Array.from({ length: MAX_RULES_PER_OUTCOME }, (_, r) => ({
    field: 'transcript',
    op: 'contains' as const,
    value:
      r === MAX_RULES_PER_OUTCOME - 1 ? `never said ${o}` : ['caller', 'invoice', 'refund', 'kindly'][r % 4],
  })),
}));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Sequential /api/health requests until `until` resolves (or `n` of them without it). */
async function healthTimes(base: string, until: Promise<unknown> | null, n = 200): Promise<number[]> {
  let done = false;
  until?.then(() => {
    done = true;
  });
  const times: number[] = [];
  while (until ? !done : times.length < n) {
    const start = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    times.push(performance.now() - start);
  }
  return times;
}

export async function previewLoadRows(deps: AppDeps, base: string): Promise<Row[]> {
  const client = await createClient(deps, { email: `preview-load-${Date.now()}@bench.invalid` });
  const now = deps.now();
  const transcript = Array.from({ length: Math.ceil(900_000 / LINE.length) }, (_, i) => ({
    role: i % 2 === 0 ? 'agent' : 'user',
    text: LINE,
  }));
  const calls = createCallsRepository(deps.db, deps.now);
  for (let i = 0; i < BIG_CALLS; i++)
    await calls.upsertCalls(client, [
      makeCall({ createdAt: now - (i + 1) * 3_600_000, transcript, insights: NO_INSIGHTS }),
    ]);
  const login = await fetch(`${base}/api/client/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: client.email, password: TEST_PASSWORD }),
  });
  const cookie = String(login.headers.get('set-cookie')).split(';')[0];

  await healthTimes(base, null, 20); // warm-up
  const idle = await healthTimes(base, null);
  // The worst preview, as often as one client may send it in a minute, back to back.
  let scanned = 0;
  const previews = (async () => {
    for (let i = 0; i < PREVIEWS_PER_MINUTE; i++) {
      const res = await fetch(`${base}/api/client/outcomes/preview`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ outcomes: worstList }),
      });
      if (res.status !== 200) throw new Error(`preview answered ${res.status}`);
      scanned += (await res.json()).scanned;
    }
  })();
  const start = performance.now();
  const loaded = await healthTimes(base, previews);
  await previews;
  const seconds = (performance.now() - start) / 1000;
  const p99 = percentile(loaded, 99);
  return [
    {
      what: `baseline: /api/health alone, p99 (p50 ${ms(percentile(idle, 50))}, ${idle.length} requests)`,
      value: ms(percentile(idle, 99)),
      target: '-',
      ok: null,
    },
    {
      what: `/api/health during ${PREVIEWS_PER_MINUTE} worst outcome previews back to back (${MAX_OUTCOMES * MAX_RULES_PER_OUTCOME} contains rules, ${scanned} calls of 900 KB in ${seconds.toFixed(1)} s), p99 (p50 ${ms(percentile(loaded, 50))}, max ${ms(Math.max(...loaded))}, ${loaded.length} requests)`,
      value: ms(p99),
      target: `≤ ${HEALTH_TARGET_MS} ms`,
      ok: p99 <= HEALTH_TARGET_MS,
    },
  ];
}

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function runAlone(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-preview-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-0123456789',
    LOG_LEVEL: 'silent',
  });
  const scratch = dialect === 'postgres' ? await createScratchDatabase(PG_URL, 'bench_preview') : null;
  const db = openDb({ databaseUrl: scratch?.url ?? null, dataDir });
  const { deps, close } = await createDeps(config, { db });
  const app = await buildApp(deps);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    for (const r of await previewLoadRows(deps, base))
      console.log(
        `| [${dialect}] ${r.what} | ${r.value} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'ok' : 'MISSED'} |`,
      );
  } finally {
    await app.close();
    await close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const which = process.env.BENCH_DB;
  for (const dialect of ['sqlite', 'postgres'] as const)
    if (!which || which === dialect) await runAlone(dialect);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
