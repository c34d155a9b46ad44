/**
 * Search cost across tenants, small enough to run alone:
 *
 *   npx tsx bench/search-tenancy.ts [--calls 40000] [--sqlite | --postgres]
 *
 * A 41-call client searches while another client holds 0, half of --calls and --calls calls saying
 * words the small client never said ("zebrafish") and some it did ("refund policy"). Measured: the
 * small client's best match for "refund" (sort=relevance), and newest-first prefix searches for a
 * word only the other client said ("zebr*", "zebrafi*") against one nobody said ("qzxv*"), p50 of
 * 30 runs after 3 warm-ups, in process.
 *
 * SQLite, both index layouts: the FTS5 statement the log runs (the walk from the newest with bm25
 * beside each for best match), on migration 030's layout (every client's words together, a
 * `client` token ANDed) and on 038's (each word the client's own term); then the whole `listCalls`
 * on 038. PostgreSQL (BENCH_DATABASE_URL, a scratch database): the whole `listCalls`.
 * Printed only; a dated section in bench/RESULTS.md carries what a run found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { CallsQuery } from '../src/contract/calls';
import { parseSearch, toFts5 } from '../src/contract/search-query';
import { listCalls } from '../src/server/calls/read/call-log';
import { fts5Match } from '../src/server/calls/read/call-search';
import { webhookTokenHash } from '../src/server/clients/webhook-token';
import { openDb } from '../src/server/db/connect';
import { migrateToLatest } from '../src/server/db/migrate';
import * as termsByClient from '../src/server/db/migrations/038_call_search_terms_by_client';
import type { Database } from '../src/server/db/schema';
import { createScratchDatabase } from '../tests/helpers/scratch-database';

const SMALL = 'tenant-small';
const BUSY = 'tenant-busy';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const callsArg = process.argv.indexOf('--calls');
const MAX_OTHER = callsArg >= 0 ? Number(process.argv[callsArg + 1]) : 40_000;
const FILLS = [0, Math.round(MAX_OTHER / 2), MAX_OTHER];
const SEARCHES: [label: string, text: string, sort: 'relevance' | 'created'][] = [
  ['best match "refund"', 'refund', 'relevance'],
  ['"zebr*" (another client\'s word)', 'zebr*', 'created'],
  ['"zebrafi*" (another client\'s word)', 'zebrafi*', 'created'],
  ['"qzxv*" (nobody\'s word)', 'qzxv*', 'created'],
];

async function addClient(db: Kysely<Database>, id: string) {
  const t = Date.now();
  await db
    .insertInto('clients')
    .values({
      id,
      first_name: 'Bench',
      last_name: id,
      email: `${id}@bench.invalid`,
      company_name: id,
      account_type: 'individual',
      per_minute_rate_cents: 15,
      timezone: 'UTC',
      is_active: 1,
      api_key_status: 'missing',
      webhook_token_hash: webhookTokenHash(`token-${id}`),
      onboarding_status: 'active',
      password_hash: null,
      created_at: t,
      updated_at: t,
    })
    .execute();
}

/** Calls n = from…from+count-1 of a client, one a second back from now, each saying `text`. */
async function addCalls(db: Kysely<Database>, clientId: string, from: number, count: number, text: string) {
  if (count <= 0) return;
  const now = Date.now();
  for (let start = from; start < from + count; start += 5_000) {
    const end = Math.min(from + count, start + 5_000) - 1;
    await sql`with recursive seq(n) as (select ${sql.lit(start)} union all select n + 1 from seq where n < ${sql.lit(end)})
      insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, updated_at, outcome_version)
      select ${clientId} || '-' || n, ${clientId}, ${clientId} || '-p' || n, '+15550000000', '+14155550100', 60, 'completed', 'Sales', null,
        ${sql.lit(now)} - n * 1000, '[{"role":"user","text":"' || ${text} || ' ' || n || '"}]', 0, 15, 0, 'sync', ${sql.lit(now)}, 0
      from seq`.execute(db);
  }
}

async function p50(run: () => Promise<unknown>, n = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 3; i++) {
    const start = performance.now();
    await run();
    if (i >= 3) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The FTS5 statement of the log (call-search.ts `sqliteMatchesByTime`), newest first, bounded. */
function ftsWalk(db: Kysely<Database>, match: string, ranked: boolean, rank: string) {
  return sql`select rowid as k${sql.raw(ranked ? `, ${rank} as r` : '')} from calls_fts where calls_fts match ${match}
    order by rowid desc limit 1001`.execute(db);
}

/** Migration 030's query text: the client's token ANDed with the words (frozen here as of 030). */
const match030 = (text: string) => {
  const parsed = parseSearch(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return `client : "c${Buffer.from(SMALL, 'utf8').toString('hex')}x" AND body : (${toFts5(parsed.query)})`;
};
const match038 = (text: string) => {
  const parsed = parseSearch(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return fts5Match(parsed.query, SMALL);
};

async function logOf(db: Kysely<Database>, text: string, sort: 'relevance' | 'created') {
  const query = CallsQuery.parse({ search: text, sort, range: '30d', status: 'all' });
  return listCalls(db, { id: SMALL, timezone: 'UTC' }, query, Date.now());
}

async function run(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-search-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase(PG_URL, 'bench_search_tenancy') : null;
  const { db } = openDb({ databaseUrl: scratch?.url ?? null, dataDir });
  try {
    await migrateToLatest(db);
    await addClient(db, SMALL);
    await addClient(db, BUSY);
    await addCalls(db, SMALL, 1, 41, 'thanks, your refund policy is that you');
    let busy = 0;
    for (const total of FILLS) {
      await addCalls(db, BUSY, busy + 1, total - busy, 'zebrafish thank you, the refund policy this time');
      busy = total;
      console.log(`[${dialect}] other client's calls: ${total.toLocaleString('en-US')}`);
      if (dialect === 'sqlite') {
        await termsByClient.down(db as Kysely<unknown>);
        const before: string[] = [];
        for (const [label, text, sort] of SEARCHES) {
          const ranked = sort === 'relevance';
          before.push(
            `${label} ${(await p50(() => ftsWalk(db, match030(text), ranked, 'bm25(calls_fts, 1.0, 0.0)'))).toFixed(2)}`,
          );
        }
        await termsByClient.up(db as Kysely<unknown>);
        const after: string[] = [];
        for (const [label, text, sort] of SEARCHES) {
          const ranked = sort === 'relevance';
          after.push(
            `${label} ${(await p50(() => ftsWalk(db, match038(text), ranked, 'bm25(calls_fts)'))).toFixed(2)}`,
          );
        }
        console.log(`  FTS5 statement, 030 layout (ms): ${before.join('; ')}`);
        console.log(`  FTS5 statement, 038 layout (ms): ${after.join('; ')}`);
      }
      const whole: string[] = [];
      for (const [label, text, sort] of SEARCHES) {
        const found = (await logOf(db, text, sort)).pagination.total;
        whole.push(`${label} ${(await p50(() => logOf(db, text, sort))).toFixed(2)} (${found} found)`);
      }
      console.log(`  listCalls (ms): ${whole.join('; ')}`);
    }
  } finally {
    await db.destroy();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.argv.includes('--sqlite')
    ? 'sqlite'
    : process.argv.includes('--postgres')
      ? 'postgres'
      : null;
  for (const dialect of ['sqlite', 'postgres'] as const) if (!only || only === dialect) await run(dialect);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
