/**
 * `npm run bench`: the performance targets of DESIGN §9, measured through the real HTTP server
 * on SQLite and on PostgreSQL, each beside a Fastify hello-world and a raw SQL query of the same
 * run so the figures read as ratios on a noisy machine. Writes bench/RESULTS.md.
 *
 * Scale: BENCH_CALLS (default 10,000,000), BENCH_CLIENTS (1,000), BENCH_BIG_CALLS (1,000,000);
 * `npm run bench -- --quick` uses 500,000 / 200 / 200,000. BENCH_DB=sqlite|postgres runs one.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildBrowser } from '../scripts/build';
import { parseSearch } from '../src/contract/search-query';
import { buildApp } from '../src/server/app';
import { hashPassword } from '../src/server/auth/passwords';
import { createDeps } from '../src/server/bootstrap';
import { fts5Match } from '../src/server/calls/read/call-search';
import { loadConfig } from '../src/server/config';
import type { AppDeps } from '../src/server/context';
import { type Db, openDb } from '../src/server/db/connect';
import { isPostgres } from '../src/server/db/dialect';
import { primeDemo } from '../src/server/demo/demo-data';
import { createBlandProvider } from '../src/server/providers/voice/bland';
import { createAdmin } from '../src/server/seed';
import { blandCallBody } from '../tests/helpers/bland';
import { createScratchDatabase, type ScratchDatabase } from '../tests/helpers/scratch-database';
import { BIG_CLIENT_ID, benchWebhookToken, createDataset } from './dataset';
import { operationsRows } from './operations';
import { outboxFairnessRows } from './outbox-fairness';
import { pageLoadRows } from './page-load';
import { previewLoadRows } from './preview-load';
import { privacyRows } from './privacy';
import { qualityRows } from './quality';
import { teamsRows } from './teams';
import { startVoiceSimProcess, type VoiceSimProcess } from './voice-sim-process';

const quick = process.argv.includes('--quick');
/**
 * A 10M-call PostgreSQL fill takes longer than the measures: `--fill-only` fills the BENCH_PG_NAME
 * database and keeps it (while the machine does other work), and a later run with
 * BENCH_REUSE_FILL=1 and the same name measures it once, on a quiet machine, and drops it.
 */
const fillOnly = process.argv.includes('--fill-only');
/**
 * One scenario alone, printed, RESULTS.md left as it is: `--teams` (bench/teams.ts),
 * `--privacy` (38), `--quality` (39), `--operations` (40); `--reads` the read figures of the main
 * run, `--writes` its webhook ingestion and sync, `--page-load` the browser's throttled page loads
 * (SQLite only). The main run (no flag) measures reads, page loads and writes and writes RESULTS.md.
 */
const SCENARIOS = ['teams', 'privacy', 'quality', 'operations', 'reads', 'writes', 'page-load'] as const;
type Scenario = (typeof SCENARIOS)[number] | 'all';
const scenario: Scenario = SCENARIOS.find((s) => process.argv.includes(`--${s}`)) ?? 'all';
const size = {
  calls: Number(process.env.BENCH_CALLS ?? (quick ? 500_000 : 10_000_000)),
  clients: Number(process.env.BENCH_CLIENTS ?? (quick ? 200 : 1_000)),
  bigClientCalls: Number(process.env.BENCH_BIG_CALLS ?? (quick ? 200_000 : 1_000_000)),
};
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SAMPLES = 200;

interface Row {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The bench's requests go to its own server over kept-alive sockets. While the bench's thread is
 * busy for longer than the server's keep-alive timeout (filling tables, a naive baseline query in
 * process), the server's timer closing an idle socket and the bench's next request on it fire in
 * the same turn: the request fails with ECONNRESET before the server has read it. Such a request
 * is sent once more, whatever the bench asked (it had not arrived).
 */
const fetchOnce = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  try {
    return await fetchOnce(input, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code !== 'ECONNRESET' && cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetchOnce(input, init);
  }
};

async function timeRequests(
  url: string,
  headers: Record<string, string>,
  n = SAMPLES,
): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 10; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= 10) times.push(performance.now() - start); // the first ten warm up
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function timeSql(run: () => Promise<unknown>, n = SAMPLES): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 10; i++) {
    const start = performance.now();
    await run();
    if (i >= 10) times.push(performance.now() - start);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

/**
 * The memory the process owns (Linux's RssAnon), else its RSS. RSS also counts the database
 * file's pages SQLite reads through its memory map: the kernel's file cache, shared and dropped
 * under pressure, which a read of a million rows touches without the server holding any of it.
 */
function ownedMemory(): number {
  try {
    const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Not Linux: RSS is the nearest measure.
  }
  return process.memoryUsage().rss;
}

interface LoadResult {
  delivered: number;
  failed: number;
  distinct: number;
  perSecond: number;
}

/** 50 concurrent senders for 5 s, from a worker thread so they do not share the server's event loop. */
async function webhookLoad(base: string, tokens: string[], prefix: string): Promise<LoadResult> {
  const start = performance.now();
  const load = await new Promise<Omit<LoadResult, 'perSecond'>>((resolve, reject) => {
    const worker = new Worker(new URL('./webhook-load-worker.mjs', import.meta.url), {
      workerData: { base, tokens, senders: 50, durationMs: 5_000, prefix, bodyTemplate: blandCallBody() },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { ...load, perSecond: load.delivered / ((performance.now() - start) / 1000) };
}

/** The same senders against a Fastify route that only answers: what this machine allows at best. */
async function helloWorldLoad(): Promise<LoadResult> {
  const app = Fastify();
  app.post('/api/webhooks/voice/:token', async () => ({ received: true }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const result = await webhookLoad(url, ['hello'], 'hello');
  await app.close();
  return result;
}

async function helloWorld(): Promise<{ p50: number; p95: number }> {
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const result = await timeRequests(url, {});
  await app.close();
  return result;
}

/**
 * Issue 17: 1,000 live streams on one instance (50 clients with 20 each, the most one client may
 * hold), read in a worker thread as browsers would read them elsewhere: how long after a webhook
 * is acknowledged its event reaches every stream of the client, the server's memory for the
 * streams, and webhook ingestion with them open against without.
 */
async function liveStreamRows(deps: AppDeps, base: string, withoutStreams: number): Promise<Row[]> {
  const clients = await deps.db
    .selectFrom('clients')
    .select('id')
    .where('id', 'like', 'bench-%')
    .where('id', '!=', BIG_CLIENT_ID)
    .orderBy('id')
    .limit(50)
    .execute();
  const arrivals = new Map<string, number[]>();
  global.gc?.();
  const rssBefore = ownedMemory();
  const cookies: string[] = [];
  // Since teams a client session signs in a user: the data set's clients get their account login.
  await deps.db
    .insertInto('client_users')
    .values(
      clients.map((c) => ({
        id: `bench-user-${c.id}`,
        client_id: c.id,
        email: `${c.id}-login@bench.invalid`,
        name: 'Bench',
        password_hash: null,
        role: 'owner' as const,
        permissions: '[]',
        status: 'active' as const,
        is_account_login: 1,
        invite_token_hash: null,
        invite_expires_at: null,
        invited_by: null,
        created_at: deps.now(),
        updated_at: deps.now(),
        last_sign_in_at: null,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  for (const client of clients)
    for (let i = 0; i < 20; i++)
      cookies.push(`client_sid=${await deps.sessions.create('client', client.id)}`);
  const streams = new Worker(new URL('./live-stream-worker.mjs', import.meta.url), {
    workerData: { url: `${base}/api/client/events`, cookies },
  });
  await new Promise<void>((resolve, reject) => {
    streams.on('message', (m: { ready?: boolean; callId?: string; at?: number }) => {
      if (m.ready) resolve();
      if (m.callId && m.at) arrivals.set(m.callId, [...(arrivals.get(m.callId) ?? []), m.at]);
    });
    streams.once('error', reject);
  });
  global.gc?.();
  const rssOpen = ownedMemory();

  // One call per client; its 20 streams' arrival times against the webhook's acknowledgement.
  const latencies: number[] = [];
  for (const client of clients) {
    const body = blandCallBody();
    const res = await fetch(`${base}/api/webhooks/voice/${benchWebhookToken(client.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const acked = performance.timeOrigin + performance.now();
    await res.arrayBuffer();
    const row = await deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .where('provider_call_id', '=', String(body.call_id))
      .executeTakeFirstOrThrow();
    const deadline = performance.now() + 5000;
    while ((arrivals.get(row.id)?.length ?? 0) < 20 && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    const seen = arrivals.get(row.id) ?? [];
    for (let i = 0; i < 20; i++) latencies.push(i < seen.length ? Math.max(0, seen[i] - acked) : 5000);
  }
  const delivered = latencies.filter((l) => l < 5000).length;
  streams.postMessage('quiet');
  // Deliveries for other clients while the streams stay open, then for the streams' own clients
  // (each delivery written to 20 streams, read by the thread beside the server on this machine).
  const others = await deps.db
    .selectFrom('clients')
    .select('id')
    .where('id', 'like', 'bench-%')
    .where(
      'id',
      'not in',
      clients.map((c) => c.id),
    )
    .limit(50)
    .execute();
  const beside = await webhookLoad(
    base,
    others.map((c) => benchWebhookToken(c.id)),
    `live-others-${Date.now()}`,
  );
  const withStreams = await webhookLoad(
    base,
    clients.map((c) => benchWebhookToken(c.id)),
    `live-${Date.now()}`,
  );
  streams.postMessage('close');
  const p95 = percentile(latencies, 95);
  return [
    {
      what: `live: event reaches each of 1,000 open streams after the webhook's answer, p95 (p50 ${ms(percentile(latencies, 50))}; ${delivered.toLocaleString()} of ${latencies.length.toLocaleString()} delivered)`,
      value: ms(p95),
      target: '≤ 500 ms',
      ok: p95 <= 500 && delivered === latencies.length,
    },
    {
      what: 'live: memory growth (anonymous RSS) for 1,000 open streams (one process: server and the reading thread)',
      value: `${((rssOpen - rssBefore) / 1024 / 1024).toFixed(1)} MB`,
      target: '-',
      ok: null,
    },
    {
      what: `live: webhook ingestion with those 1,000 streams open, for other clients (without streams: ${Math.round(withoutStreams).toLocaleString()}/s)`,
      value: `${Math.round(beside.perSecond).toLocaleString()}/s`,
      target: 'within 10 %',
      ok: beside.perSecond >= withoutStreams * 0.9,
    },
    {
      what: "live: webhook ingestion for the streams' own clients, each delivery written to 20 streams read by a thread on the same 2 cores",
      value: `${Math.round(withStreams.perSecond).toLocaleString()}/s`,
      target: '-',
      ok: null,
    },
  ];
}

/**
 * The agency's console over every client (1,000 clients and 10M calls in the full run):
 * portfolio analytics
 * for 30 and 90 days and the at-risk list, read from the per-client days, beside a naive
 * aggregation of the raw calls for the same 30 days.
 */
async function agencyConsoleRows(deps: AppDeps, base: string, clients: number): Promise<Row[]> {
  const username = 'bench-admin';
  await createAdmin(deps.db, {
    username,
    name: 'Bench Admin',
    passwordHash: await hashPassword('bench-password'),
  });
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench-password' }),
  });
  const headers = { cookie: String(login.headers.get('set-cookie')).split(';')[0] };
  const rows: Row[] = [];
  const since = deps.now() - 30 * 86_400_000;
  const start = performance.now();
  await sql`select client_id, count(*), sum(cost_micros), sum(provider_price_micros) from calls where created_at > ${since} group by client_id`.execute(
    deps.db,
  );
  rows.push({
    what: 'baseline: naive per-client sums of raw calls, 30 days',
    value: ms(performance.now() - start),
    target: '-',
    ok: null,
  });
  const of = `${clients.toLocaleString('en-US')} clients`;
  for (const [what, url] of [
    [`admin analytics, 30 days, ${of}`, '/api/admin/analytics?dateRange=30d'],
    [`admin analytics, 90 days, ${of}`, '/api/admin/analytics?dateRange=90d'],
    [`clients at risk, ${of}`, '/api/admin/at-risk'],
  ] as const) {
    const r = await timeRequests(`${base}${url}`, headers);
    rows.push({
      what: `${what} p95 (p50 ${ms(r.p50)})`,
      value: ms(r.p95),
      target: '≤ 20 ms',
      ok: r.p95 <= 20,
    });
  }
  return rows;
}

/**
 * Issues 15 and 41 at the big client: its 60 days searched newest first (a word, a prefix, a
 * phrase, a common word; the first page with the bounded count), best match first, by phone number
 * written three ways, by call id and provider call id, a keyset page past the first 1,000 matches,
 * the log sorted by duration; beside the naive exact count of the same matches (issue 15's total);
 * a custom range; and exports of every one of its calls as CSV and Excel (rows/s and the server's
 * memory growth), beside a keyset read of the same rows.
 */
async function findCallsRows(
  db: Db['db'],
  base: string,
  headers: Record<string, string>,
  window: string,
  now: number,
): Promise<Row[]> {
  const rows: Row[] = [];
  const latency = async (what: string, url: string, target: number | null, n = SAMPLES) => {
    const r = await timeRequests(`${base}${url}`, headers, n);
    rows.push({
      what: `${what} p95 (p50 ${ms(r.p50)})`,
      value: ms(r.p95),
      target: target === null ? '-' : `≤ ${target} ms`,
      ok: target === null ? null : r.p95 <= target,
    });
  };
  const getJson = async (url: string) => (await fetch(`${base}${url}`, { headers })).json();
  const from60 = now - 60 * 86_400_000;
  // The exact number of matches in the window, counted the naive way (every match read, as the
  // log's total did before issue 41): the baseline of each search below, and its label.
  const postgres = isPostgres(db);
  // The client's own terms (migration 038), as the log asks for them.
  const keyedMatch = (text: string) => {
    const parsed = parseSearch(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return fts5Match(parsed.query, BIG_CLIENT_ID);
  };
  const exactCount = async (fts5: string, tsquery: string) => {
    const start = performance.now();
    const { rows: counted } = postgres
      ? await sql<{
          n: number;
        }>`select count(*) as n from calls where client_id = ${BIG_CLIENT_ID} and created_at > ${from60} and search_vector @@ to_tsquery('english', ${tsquery})`.execute(
          db,
        )
      : await sql<{
          n: number;
        }>`select count(*) as n from calls where client_id = ${BIG_CLIENT_ID} and created_at > ${from60} and (created_at * 1048576 + (rowid & 1048575)) in (select rowid from calls_fts where calls_fts match ${keyedMatch(fts5)})`.execute(
          db,
        );
    return { n: Number(counted[0].n), ms: performance.now() - start };
  };
  const searches: [string, string, string, string, number][] = [
    ['a word', 'refund', 'refund', 'refund', 50],
    ['a prefix', 'refu*', 'refu*', 'refu:*', 50],
    ['a phrase', '"damaged parcel"', '"damaged parcel"', 'damag <-> parcel', 50],
    ['a common word', 'order', 'order', 'order', 50],
  ];
  let firstPage: { pagination: { nextAfter?: string } } | null = null;
  for (const [kind, text, fts5, tsquery, target] of searches) {
    const exact = await exactCount(fts5, tsquery);
    rows.push({
      what: `baseline: naive exact count of ${kind} ("${text}", ${exact.n.toLocaleString()} matches in 60 days)`,
      value: ms(exact.ms),
      target: '-',
      ok: null,
    });
    const url = `/api/client/calls?${window}&search=${encodeURIComponent(text)}&limit=25`;
    await latency(
      `search newest first, ${kind} ("${text}"), first page of "1,000+"`,
      url,
      target,
      kind === 'a common word' ? 50 : SAMPLES,
    );
    if (text === 'refund') firstPage = await getJson(url);
  }
  await latency(
    'search best match first (sort=relevance), a word ("refund"), first page',
    `/api/client/calls?${window}&search=refund&sort=relevance&limit=25`,
    150,
    50,
  );
  await latency(
    'search best match first (sort=relevance), a phrase ("damaged parcel"), first page',
    `/api/client/calls?${window}&search=%22damaged%20parcel%22&sort=relevance&limit=25`,
    150,
    50,
  );
  // Page 41 of "refund" (past the 1,000th match): the keyset page after page 40's last row.
  let cursor = firstPage?.pagination.nextAfter;
  for (let page = 2; page <= 40 && cursor; page++)
    cursor = (
      await getJson(`/api/client/calls?${window}&search=refund&limit=25&page=${page}&after=${cursor}`)
    ).pagination.nextAfter;
  if (cursor)
    await latency(
      'search newest first, a word, page 41 (past the 1,000th match, by keyset)',
      `/api/client/calls?${window}&search=refund&limit=25&page=41&after=${cursor}`,
      50,
    );
  // b12345: the big client's call from +1 555 001 2345, provider id pb12345 (bench/dataset.ts).
  for (const written of ['+15550012345', '(555) 001-2345', '1-555-001-2345'])
    await latency(
      `search by phone number written "${written}"`,
      `/api/client/calls?${window}&search=${encodeURIComponent(written)}`,
      20,
    );
  await latency('search by call id', `/api/client/calls?${window}&search=b12345`, 20);
  await latency('search by provider call id', `/api/client/calls?${window}&search=pb12345`, 20);
  const naiveSort = performance.now();
  await sql`select id from calls where client_id = ${BIG_CLIENT_ID} and created_at > ${from60} order by +duration_seconds desc, id desc limit 25`.execute(
    db,
  );
  rows.push({
    what: 'baseline: naive sort of the 60 days by duration (no index), first 25',
    value: ms(performance.now() - naiveSort),
    target: '-',
    ok: null,
  });
  await latency(
    'call log sorted by duration, first page',
    `/api/client/calls?${window}&sort=duration&order=desc`,
    50,
    50,
  );
  const day = (offset: number) => new Date(now - offset * 86_400_000).toISOString().slice(0, 10);
  await latency('stats, custom range of 60 local days', `/api/client/stats?from=${day(60)}&to=${day(1)}`, 10);

  // Exports: the big client's every call, streamed; memory sampled every 20 ms while it runs.
  const keysetStart = performance.now();
  let read = 0;
  let after: { at: number; id: string } | null = null;
  for (;;) {
    let q = db
      .selectFrom('calls')
      .select([
        'id',
        'created_at',
        'from_number',
        'to_number',
        'duration_seconds',
        'status',
        'outcome',
        'pathway',
        'cost_micros',
        'summary',
      ])
      .where('client_id', '=', BIG_CLIENT_ID)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(2000);
    if (after) {
      const { at, id } = after;
      q = q.where('created_at', '<=', at).where(sql<boolean>`(created_at, id) < (${at}, ${id})`);
    }
    const batch = await q.execute();
    read += batch.length;
    if (batch.length < 2000) break;
    const last = batch[batch.length - 1];
    after = { at: Number(last.created_at), id: last.id };
  }
  const keysetSeconds = (performance.now() - keysetStart) / 1000;
  rows.push({
    what: `baseline: keyset read of the same rows, no formatting (${read.toLocaleString()} rows)`,
    value: `${Math.round(read / keysetSeconds).toLocaleString()} rows/s`,
    target: '-',
    ok: null,
  });
  for (const format of ['csv', 'xlsx'] as const) {
    // `npm run bench` exposes the collector: the live heap before and after tells retained memory
    // from the headroom V8 takes while the export allocates.
    global.gc?.();
    const before = process.memoryUsage();
    const ownedBefore = ownedMemory();
    let peak = ownedBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, ownedMemory());
    }, 20);
    const start = performance.now();
    const res = await fetch(`${base}/api/client/calls/export?format=${format}&status=all`, { headers });
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (format === 'csv') for (const b of chunk) if (b === 10) newlines++;
    }
    clearInterval(sampler);
    const seconds = (performance.now() - start) / 1000;
    global.gc?.();
    const retained = (process.memoryUsage().heapUsed - before.heapUsed) / 1024 / 1024;
    const exported = format === 'csv' ? newlines - 1 : read;
    const growth = (peak - ownedBefore) / 1024 / 1024;
    rows.push({
      what: `export of every call as ${format.toUpperCase()} (${exported.toLocaleString()} rows, ${(bytes / 1024 / 1024).toFixed(0)} MB): server memory (anonymous RSS) +${growth.toFixed(0)} MB at peak, live heap ${retained >= 0 ? '+' : ''}${retained.toFixed(1)} MB after`,
      value: `${Math.round(exported / seconds).toLocaleString()} rows/s`,
      target: '≤ +64 MB',
      ok: res.status === 200 && growth <= 64 && (format !== 'csv' || exported === read),
    });
  }
  return rows;
}

interface BenchContext {
  dialect: 'sqlite' | 'postgres';
  deps: AppDeps;
  base: string;
  headers: Record<string, string>;
  now: number;
  sim: VoiceSimProcess;
  webDir: string | null;
}

/** The call log's 60-day window as the browser asks for it. */
function windowOf(now: number): string {
  const from60 = now - 60 * 86_400_000;
  return `startDate=${new Date(from60).toISOString()}&endDate=${new Date(now).toISOString()}&status=all`;
}

/** The read figures of DESIGN §9 on one database, with the server and data set already up. */
async function readRows({ deps, base, headers, now }: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const hello = await helloWorld();
  rows.push({ what: 'baseline: Fastify hello-world p95', value: ms(hello.p95), target: '-', ok: null });
  const point = await timeSql(() =>
    deps.db.selectFrom('clients').select('id').where('id', '=', BIG_CLIENT_ID).execute(),
  );
  rows.push({ what: 'baseline: raw SQL point query p95', value: ms(point.p95), target: '-', ok: null });
  const from60 = now - 60 * 86_400_000;
  const start = performance.now();
  const naive = await sql<{
    n: number;
  }>`select count(*) as n, sum(duration_seconds) as s from calls where client_id = ${BIG_CLIENT_ID} and created_at > ${from60}`.execute(
    deps.db,
  );
  rows.push({
    what: `baseline: naive scan of the 60-day window (${Number(naive.rows[0].n).toLocaleString()} rows)`,
    value: ms(performance.now() - start),
    target: '-',
    ok: null,
  });

  const window = windowOf(now);
  const first = await (await fetch(`${base}/api/client/calls?${window}`, { headers })).json();
  const endpoints: [string, string][] = [
    ['stats, 60 days', '/api/client/stats?dateRange=60d'],
    ['calls-over-time, 60 days', '/api/client/calls-over-time?dateRange=60d'],
    ['outcomes summary, 60 days', '/api/client/outcomes/summary?dateRange=60d'],
    [
      'outcomes over time, 60 days (as the browser asks)',
      `/api/client/outcomes-over-time?dateRange=60d&${window}`,
    ],
    ['needs attention, open list', '/api/client/attention?limit=5'],
    ['call log filtered by outcome, first page', `/api/client/calls?${window}&outcome=Voicemail&page=1`],
    ['call log, first page (with total)', `/api/client/calls?${window}&page=1`],
    ['call log, last page (with total)', `/api/client/calls?${window}&page=${first.pagination.totalPages}`],
  ];
  for (const [what, url] of endpoints) {
    const r = await timeRequests(`${base}${url}`, headers);
    rows.push({
      what: `${what} p95 (p50 ${ms(r.p50)})`,
      value: ms(r.p95),
      target: '≤ 10 ms',
      ok: r.p95 <= 10,
    });
  }
  rows.push(...(await findCallsRows(deps.db, base, headers, window, now)));
  rows.push(...(await agencyConsoleRows(deps, base, size.clients)));
  rows.push(...(await previewLoadRows(deps, base)));
  rows.push(...(await teamsRows(deps, base, headers, window, { requests: timeRequests, sql: timeSql })));
  return rows;
}

/** Webhook ingestion beside a bare Fastify POST, live streams under load, and a 10,000-call sync. */
async function writeRows({ dialect, deps, base, headers, sim }: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  // Webhook ingestion: 50 concurrent senders for 5 s across 50 clients, 10% repeated deliveries.
  const tokens = (
    await deps.db.selectFrom('clients').select('id').where('id', 'like', 'bench-%').limit(50).execute()
  ).map((r) => benchWebhookToken(r.id));
  const prefix = `wh-${dialect}`;
  const helloLoad = await helloWorldLoad();
  rows.push({
    what: 'baseline: Fastify hello-world POST, same 50 senders',
    value: `${Math.round(helloLoad.perSecond).toLocaleString()}/s`,
    target: '-',
    ok: null,
  });
  const load = await webhookLoad(base, tokens, prefix);
  const stored = Number(
    (
      await sql<{
        n: number;
      }>`select count(*) as n from calls where provider_call_id like ${`${prefix}-%`}`.execute(deps.db)
    ).rows[0].n,
  );
  const { perSecond } = load;
  // Against the bare POST of the same run (the machine's speed varies run to run).
  const ratio = perSecond / helloLoad.perSecond;
  const wanted = dialect === 'sqlite' ? 0.5 : 0.3;
  rows.push({
    what: `webhook ingestion, 50 senders (${load.delivered.toLocaleString()} deliveries, ${load.failed} failed, ${load.distinct.toLocaleString()} distinct calls, ${stored.toLocaleString()} stored)${dialect === 'sqlite' ? ', synchronous=FULL' : ''}, against the bare POST`,
    value: `${Math.round(perSecond).toLocaleString()}/s (${Math.round(ratio * 100)} %)`,
    target: `≥ ${wanted * 100} % of the bare POST, none lost`,
    ok: ratio >= wanted && load.failed === 0 && stored === load.distinct,
  });
  rows.push(...(await liveStreamRows(deps, base, perSecond)));
  if (dialect === 'sqlite') {
    // The durability choice (README): the same load with the cheaper fsync policy, for comparison.
    await sql`pragma synchronous = NORMAL`.execute(deps.db);
    const normal = await webhookLoad(base, tokens, `${prefix}-normal`);
    await sql`pragma synchronous = FULL`.execute(deps.db);
    rows.push({
      what: 'comparison: the same ingestion with SQLite synchronous=NORMAL (a power cut may lose acknowledged calls)',
      value: `${Math.round(normal.perSecond).toLocaleString()}/s`,
      target: '-',
      ok: null,
    });
  }

  // Sync: 10,000 provider calls from the simulator.
  const key = `bench-sync-${dialect}`;
  await sim.addCalls(key, { count: 10_000, spreadDays: 30 });
  await deps.db
    .updateTable('clients')
    .set({ bland_api_key_enc: deps.secrets.encrypt(key) })
    .where('id', '=', BIG_CLIENT_ID)
    .execute();
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  const syncRes = await fetch(`${base}/api/client/calls/sync`, { method: 'POST', headers });
  const syncBody = await syncRes.json();
  const syncSeconds = (performance.now() - start) / 1000;
  // The server's CPU time (the simulator runs in its own process): what a loaded machine's wall
  // clock cannot say.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  rows.push({
    what: `sync of 10,000 provider calls (${syncBody.created ?? 0} created; server CPU ${cpuSeconds.toFixed(2)} s)`,
    value: `${syncSeconds.toFixed(2)} s`,
    target: '≤ 6 s',
    ok: syncRes.status === 200 && syncSeconds <= 6,
  });
  return rows;
}

async function benchDialect(dialect: 'sqlite' | 'postgres', webDir: string | null): Promise<Row[]> {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-'));
  let database: Db;
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  let filled: number | null = null;
  if (dialect === 'postgres') {
    // BENCH_PG_NAME lets two benches share the server without dropping each other's database.
    const name = process.env.BENCH_PG_NAME ?? 'bench_run';
    const kept = process.env.BENCH_REUSE_FILL === '1' ? await keptFill(name) : null;
    const scratch = kept ?? (await createScratchDatabase(PG_URL, name));
    databaseUrl = scratch.url;
    database = openDb({ databaseUrl: scratch.url, dataDir, poolSize: 10 });
    dropDatabase = scratch.drop;
    filled = kept?.filledAt ?? null;
  } else {
    database = openDb({ databaseUrl: null, dataDir });
  }

  const sim = await startVoiceSimProcess();
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-0123456789',
    BLAND_API_URL: sim.url,
    LOG_LEVEL: 'silent',
  });
  const { deps, close } = await createDeps(config, {
    db: database,
    voice: createBlandProvider({ baseUrl: sim.url }),
  });
  const now = filled ?? Date.now();

  if (filled === null) {
    console.log(`[${dialect}] generating ${size.calls.toLocaleString()} calls for ${size.clients} clients…`);
    const start = performance.now();
    await createDataset(database, size, now);
    console.log(`[${dialect}] data set ready in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  } else {
    console.log(
      `[${dialect}] the data set filled at ${new Date(filled).toISOString()} (--fill-only) is used`,
    );
  }
  if (fillOnly) {
    await sql`create table bench_fill (filled_at bigint not null, calls bigint not null, clients bigint not null, big_client_calls bigint not null)`.execute(
      database.db,
    );
    await sql`insert into bench_fill values (${now}, ${size.calls}, ${size.clients}, ${size.bigClientCalls})`.execute(
      database.db,
    );
    await close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(
      `[${dialect}] filled and kept; measure it with BENCH_REUSE_FILL=1 and the same BENCH_PG_NAME`,
    );
    return rows;
  }

  await deps.db
    .updateTable('clients')
    .set({ password_hash: await hashPassword('bench-password') })
    .where('id', '=', BIG_CLIENT_ID)
    .execute();
  const app = await buildApp(deps, webDir ? { webDir } : {});
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // As `npm start` does (main.ts): the demo is filled at start, not by its first visitor.
  await primeDemo(deps, (error) => console.warn(`[${dialect}] could not prepare the demo data:`, error));
  const login = await fetch(`${base}/api/client/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench-0@bench.invalid', password: 'bench-password' }),
  });
  const cookie = String(login.headers.get('set-cookie')).split(';')[0];
  const headers = { cookie };

  const context: BenchContext = { dialect, deps, base, headers, now, sim, webDir };
  // A page load is the same on either database: measured once, on SQLite, into the Browser section.
  const pageLoads = async () => {
    if (dialect === 'sqlite' && webDir)
      pageRows.push(...(await pageLoadRows(base, 'bench-0@bench.invalid', 'bench-password')));
    return [];
  };
  const measure: Record<Scenario, () => Promise<Row[]>> = {
    teams: () => teamsRows(deps, base, headers, windowOf(now), { requests: timeRequests, sql: timeSql }),
    privacy: () => privacyRows(deps),
    quality: () => qualityRows(deps, base, headers, { requests: timeRequests, sql: timeSql }),
    operations: () =>
      operationsRows(deps, base, {
        DATA_DIR: dataDir,
        APP_SECRET: 'bench-secret-0123456789',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      }),
    reads: () => readRows(context),
    writes: () => writeRows(context),
    'page-load': pageLoads,
    all: async () => [...(await readRows(context)), ...(await pageLoads()), ...(await writeRows(context))],
  };
  rows.push(...(await measure[scenario]()));

  await app.close();
  await close();
  await sim.close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
  return rows;
}

/** The database a `--fill-only` run kept, when its size is this run's; the fill's clock with it. */
async function keptFill(name: string): Promise<(ScratchDatabase & { filledAt: number }) | null> {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const probe = openDb({ databaseUrl: url.toString(), dataDir: tmpdir(), poolSize: 1 });
  try {
    const { rows } = await sql<{
      filled_at: string;
      calls: string;
      clients: string;
      big_client_calls: string;
    }>`select * from bench_fill`.execute(probe.db);
    const fill = rows[0];
    if (
      !fill ||
      Number(fill.calls) !== size.calls ||
      Number(fill.clients) !== size.clients ||
      Number(fill.big_client_calls) !== size.bigClientCalls
    )
      return null;
    const scratch = await createScratchDatabase(PG_URL, name, { keep: true });
    return { ...scratch, filledAt: Number(fill.filled_at) };
  } catch {
    return null; // no such database, or not a kept fill
  } finally {
    await probe.db.destroy();
  }
}

/** The dashboard's page loads (page-load.ts), filled in by the SQLite run. */
const pageRows: Row[] = [];

function bundleRows(built: boolean): Row[] {
  const dir = 'dist/web';
  if (!built)
    return [{ what: 'browser bundle (the build failed)', value: '-', target: '≤ 150 KB', ok: false }];
  const html = readFileSync(`${dir}/index.html`, 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gz = (file: string) => gzipSync(readFileSync(path.join(dir, file))).length;
  const base = initial.reduce((n, f) => n + gz(f), 0);
  const assets = readdirSync(`${dir}/assets`);
  const rows: Row[] = [];
  for (const [route, prefix] of [
    ['landing (/)', 'landing-page'],
    ['login (/client-login)', 'client-login-page'],
  ] as const) {
    const chunk = assets.find((a) => a.startsWith(prefix) && a.endsWith('.js'));
    const total = base + (chunk ? gz(`assets/${chunk}`) : 0);
    rows.push({
      what: `browser: ${route} gzipped JS`,
      value: `${(total / 1024).toFixed(1)} KB`,
      target: '≤ 150 KB',
      ok: total <= 150 * 1024,
    });
  }
  return rows;
}

async function main() {
  const which = process.env.BENCH_DB;
  // Issue 34.1's scenario alone (bench/outbox-fairness.ts): printed, RESULTS.md left as it is.
  if (process.argv.includes('--outbox-fairness')) {
    for (const dialect of ['sqlite', 'postgres'] as const)
      if (!which || which === dialect)
        for (const r of await outboxFairnessRows(dialect))
          console.log(
            `[${dialect}] ${r.what} | ${r.value} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'ok' : 'MISSED'}`,
          );
    return;
  }
  if (fillOnly) {
    await benchDialect('postgres', null);
    return;
  }
  if (scenario !== 'all') {
    const webDir = scenario === 'page-load' && buildBrowser(true) ? path.resolve('dist/web') : null;
    for (const dialect of ['sqlite', 'postgres'] as const)
      if ((!which || which === dialect) && (scenario !== 'page-load' || dialect === 'sqlite'))
        for (const r of [...(await benchDialect(dialect, webDir)), ...pageRows])
          console.log(
            `[${dialect}] ${r.what} | ${r.value} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'ok' : 'MISSED'}`,
          );
    return;
  }
  const built = buildBrowser(true);
  const sections: [string, Row[]][] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (which && which !== dialect) continue;
    sections.push([
      dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      await benchDialect(dialect, built ? path.resolve('dist/web') : null),
    ]);
  }
  // The page loads are measured on SQLite's data set only: a PostgreSQL run keeps the Browser section.
  if (which !== 'postgres') sections.push(['Browser', [...bundleRows(built), ...pageRows]]);
  const lines = [
    '# Benchmark results',
    '',
    `Run ${new Date().toISOString()} on ${process.platform}, Node ${process.version}; data set: ${size.calls.toLocaleString()} calls, ${size.clients.toLocaleString()} clients, big client ${size.bigClientCalls.toLocaleString()} calls in 90 days${quick ? ' (--quick)' : ''}.`,
    'Latencies are p95 over 200 sequential requests through the real HTTP server (after 10 warm-up requests).',
    'Sections this run did not measure (the other database with BENCH_DB, dated scenario runs, lab notes) are kept from earlier runs.',
    '',
  ];
  for (const [title, rows] of sections) {
    lines.push(`## ${title}`, '', '| measure | result | target | |', '|---|---|---|---|');
    for (const r of rows)
      lines.push(`| ${r.what} | ${r.value} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'ok' : 'MISSED'} |`);
    lines.push('');
  }
  const kept = sectionsNotRerun(readFileSync('bench/RESULTS.md', 'utf8'), new Set(sections.map(([t]) => t)));
  writeFileSync('bench/RESULTS.md', `${[...lines, ...kept].join('\n').trimEnd()}\n`);
  console.log(lines.join('\n'));
}

/**
 * The sections of the previous RESULTS.md this run did not measure again: the other database's
 * tables when BENCH_DB picks one, the dated scenario runs and the lab notes written by hand. A run
 * replaces only the tables it took, so no figure is lost by running the bench.
 */
export function sectionsNotRerun(previous: string, rerun: Set<string>): string[] {
  const kept: string[] = [];
  for (const section of previous.split(/^(?=## )/m).slice(1)) {
    const title = section.slice(3, section.indexOf('\n')).trim();
    if (!rerun.has(title)) kept.push(section.trimEnd(), '');
  }
  return kept;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
