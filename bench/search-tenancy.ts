/**
 * Issue 34.4 reproduced on SQLite, small enough to run alone (`npx tsx bench/search-tenancy.ts`):
 * a 41-call client's ranked word search while another client holds 20,000 and then 40,000 calls
 * saying the same words, with FTS5's index as migration 011 left it (every client's entries
 * together, the client dropped after the match) and keyed by client (migration 019). The query is
 * the call log's ranked first page (call-log.ts `rankedPage`), timed in SQL: p50 of 30 runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { parseSearch, toFts5 } from '../src/contract/search-query';
import { fts5Match } from '../src/server/calls/read/call-search';
import { openDb } from '../src/server/db/connect';
import { migrateToLatest } from '../src/server/db/migrate';
import * as keyedIndex from '../src/server/db/migrations/019_call_search_fts_by_client';
import type { Database } from '../src/server/db/schema';
import { webhookTokenHash } from '../src/server/clients/webhook-token';

const SMALL = 'tenant-small';
const BUSY = 'tenant-busy';
const QUERIES = ['refund', 'zebra', 'tha* OR you* OR thi* OR the*', '"refund policy"'];

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

async function addCalls(db: Kysely<Database>, clientId: string, from: number, count: number, text: string) {
  if (count <= 0) return;
  const now = Date.now();
  await sql`with recursive seq(n) as (select ${sql.lit(from)} union all select n + 1 from seq where n < ${sql.lit(from + count - 1)})
    insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, updated_at, outcome_version)
    select ${clientId} || '-' || n, ${clientId}, ${clientId} || '-p' || n, '+15550000000', '+14155550100', 60, 'completed', 'Sales', null,
      ${sql.lit(now)} - n * 1000, '[{"role":"user","text":"' || ${text} || ' ' || n || '"}]', 0, 15, 0, 'sync', ${sql.lit(now)}, 0
    from seq`.execute(db);
}

/** The call log's ranked first page for one client: match, join, the client's filter, rank, count. */
async function rankedPage(db: Kysely<Database>, match: string, rank: string) {
  return sql`select calls.id, count(*) over () as matches from calls
    inner join (select rowid as fts_rowid, ${sql.raw(rank)} as fts_rank from calls_fts where calls_fts match ${match}) f
      on f.fts_rowid = calls.rowid
    where calls.is_proxy = 0 and calls.verified = 1 and calls.client_id = ${SMALL}
    order by f.fts_rank, calls.created_at desc, calls.id desc limit 50`.execute(db);
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

async function measure(db: Kysely<Database>, keyed: boolean) {
  const out: string[] = [];
  for (const q of QUERIES) {
    const parsed = parseSearch(q);
    if (!parsed.ok) throw new Error(parsed.message);
    const match = keyed ? fts5Match(parsed.query, SMALL) : toFts5(parsed.query);
    const rank = keyed ? 'bm25(calls_fts, 1.0, 0.0)' : 'rank';
    const found = (await rankedPage(db, match, rank)).rows.length;
    out.push(`${q}: ${(await p50(() => rankedPage(db, match, rank))).toFixed(2)} ms (${found} found)`);
  }
  return out.join('; ');
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-search-'));
  const { db } = openDb({ databaseUrl: null, dataDir });
  try {
    await migrateToLatest(db);
    await addClient(db, SMALL);
    await addClient(db, BUSY);
    await addCalls(db, SMALL, 1, 41, 'thanks, your refund policy is that you');
    let busy = 0;
    for (const total of [0, 20_000, 40_000]) {
      await addCalls(db, BUSY, busy + 1, total - busy, 'thank you, the refund policy this time');
      busy = total;
      await keyedIndex.down(db as Kysely<unknown>);
      const before = await measure(db, false);
      await keyedIndex.up(db as Kysely<unknown>);
      const after = await measure(db, true);
      console.log(`other client's matching calls: ${total.toLocaleString()}`);
      console.log(`  one index for all (011): ${before}`);
      console.log(`  keyed by client (019):   ${after}`);
    }
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
