/**
 * Issue 39 at scale: conversation quality. The big client's calls measured (their quality columns
 * and a year of daily quality rollups filled in directly, as the backfill would leave them), then:
 * the Quality summary of 30 and 60 days beside the stats of the same windows and a raw point
 * query; the log filtered on slow answers beside the unfiltered log; writing calls with timed
 * transcripts (measured on arrival) beside the same calls without; the backfill's throughput.
 * `npm run bench -- --quality` (both databases), figures printed.
 */
import { sql } from 'kysely';
import { QUALITY_METRICS, TIMING_PRECISIONS } from '../src/contract/quality';
import { createCallsRepository, type IncomingCall } from '../src/server/calls/write/calls-repository';
import { backfillClient } from '../src/server/calls/write/quality-backfill';
import type { AppDeps } from '../src/server/context';
import { gridValue } from '../src/server/quality/grid';
import { precisionMetric } from '../src/server/quality/quality-rollups';
import { localDate, shiftDate } from '../src/server/time/time-zones';
import { BIG_CLIENT_ID } from './dataset';

interface Row {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}
type Timed = { p50: number; p95: number };
type TimeRequests = (url: string, headers: Record<string, string>, n?: number) => Promise<Timed>;
type TimeSql = (run: () => Promise<unknown>, n?: number) => Promise<Timed>;

const ms = (v: number) => `${v.toFixed(2)} ms`;
const perSecond = (n: number, elapsed: number) =>
  `${Math.round((n * 1000) / elapsed).toLocaleString('en-US')} calls/s`;
const WRITES = 2_000;

/** A deterministic spread of a metric's values, like a real agent's (most fast, a long tail). */
function spread(metric: string, i: number): number {
  const u = ((i * 2654435761) % 1000) / 1000;
  switch (metric) {
    case 'responseLatencyP50Ms':
      return 600 + u * u * 3000;
    case 'responseLatencyP90Ms':
    case 'deadAirLongestMs':
      return 900 + u * u * 9000;
    case 'longestMonologueMs':
      return 3000 + u * 40_000;
    case 'silencePct':
    case 'agentTalkPct':
      return u * 60;
    case 'talkListenRatio':
      return 0.3 + u * 3;
    default:
      return Math.floor(u * u * 8);
  }
}

/** A year of the big client's daily quality rollups: each day's calls over ~40 values per metric. */
async function fillRollups(deps: AppDeps, callsPerDay: number, today: string): Promise<number> {
  const rows: {
    client_id: string;
    day: string;
    metric: string;
    histogram_json: string;
    call_count: number;
  }[] = [];
  const row = (day: string, metric: string, counts: Map<number, number>) => {
    const pairs = [...counts.entries()].sort(([a], [b]) => a - b);
    rows.push({
      client_id: BIG_CLIENT_ID,
      day,
      metric,
      histogram_json: JSON.stringify(pairs),
      call_count: pairs.reduce((n, [, c]) => n + c, 0),
    });
  };
  for (let d = 0; d < 365; d++) {
    const day = shiftDate(today, -d);
    for (const metric of QUALITY_METRICS) {
      const counts = new Map<number, number>();
      for (let i = 0; i < 40; i++) {
        const value = gridValue(metric, spread(metric, d * 40 + i));
        counts.set(value, (counts.get(value) ?? 0) + Math.ceil(callsPerDay / 40));
      }
      row(day, metric, counts);
    }
    for (const precision of TIMING_PRECISIONS)
      row(day, precisionMetric(precision), new Map([[0, Math.round(callsPerDay / 4)]]));
  }
  for (let i = 0; i < rows.length; i += 500)
    await deps.db
      .insertInto('quality_rollups_daily')
      .values(rows.slice(i, i + 500))
      .execute();
  return rows.length;
}

/** The big client's calls' quality columns, as the backfill would have set them. */
async function fillCallColumns(deps: AppDeps): Promise<void> {
  const json = JSON.stringify({
    precision: 'message',
    turns: 12,
    responseLatencyMs: { p50: 1200, p90: 4000, max: 5200, count: 6 },
    interruptions: { caller: 1, agent: 0 },
    deadAir: { count: 1, longestMs: 4200 },
    silencePct: 3.1,
    agentTalkPct: 48.2,
    talkListenRatio: 1.4,
    longestMonologueMs: 15000,
    endedBy: 'caller',
    escalated: false,
    sentiment: null,
    moments: [{ kind: 'slow_turn', atMs: 30000, durationMs: 4000 }],
  });
  // Values spread by the call's creation time, so the worst-call indexes have a real order to keep.
  await sql`
    update calls set
      quality_json = ${json},
      quality_precision = 'message',
      quality_latency_p90_ms = 900 + (created_at % 9000),
      quality_interruptions_caller = (created_at / 1000) % 7,
      quality_dead_air_ms = 1000 + (created_at / 7) % 8000
    where client_id = ${BIG_CLIENT_ID}
  `.execute(deps.db);
}

function timedCalls(count: number, tag: string, timed: boolean): IncomingCall[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    providerCallId: `bench-quality-${tag}-${i}`,
    fromNumber: `+1888${String(i).padStart(7, '0')}`,
    toNumber: '+14155550100',
    durationSeconds: 240,
    status: 'completed',
    pathwayId: null,
    pathway: 'Booking',
    createdAt: now - i * 1000,
    recordingUrl: null,
    transcript: Array.from({ length: 40 }, (_, line) => ({
      role: line % 2 === 0 ? 'agent' : 'user',
      text: 'yes I would like to book the appointment for next Tuesday morning',
      ...(timed ? { startMs: line * 5500 + (i % 7) * 100, endMs: line * 5500 + 4800 } : {}),
    })),
    isProxy: false,
    priceUsd: null,
    source: 'sync',
    ...(timed
      ? { conversation: { precision: 'message' as const, endedBy: 'caller' as const, sentiment: null } }
      : {}),
  }));
}

async function writeCalls(deps: AppDeps, clientId: string, calls: IncomingCall[]): Promise<number> {
  const repo = createCallsRepository(deps.db);
  const owner = { id: clientId, per_minute_rate_cents: 15, timezone: 'UTC' };
  const start = performance.now();
  for (let i = 0; i < calls.length; i += 200) await repo.upsertCalls(owner, calls.slice(i, i + 200));
  return performance.now() - start;
}

export async function qualityRows(
  deps: AppDeps,
  base: string,
  headers: Record<string, string>,
  time: { requests: TimeRequests; sql: TimeSql },
): Promise<Row[]> {
  const rows: Row[] = [];
  const push = rows.push.bind(rows);
  rows.push = (...more: Row[]) => {
    for (const r of more) console.log(`  ${r.what} | ${r.value} | ${r.target}`);
    return push(...more);
  };
  const big = await deps.db
    .selectFrom('clients')
    .select('timezone')
    .where('id', '=', BIG_CLIENT_ID)
    .executeTakeFirstOrThrow();
  const { n } = await deps.db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', BIG_CLIENT_ID)
    .executeTakeFirstOrThrow();
  const today = localDate(Date.now(), big.timezone);
  let start = performance.now();
  const rollupRows = await fillRollups(deps, Math.round(Number(n) / 90), today);
  await fillCallColumns(deps);
  console.log(
    `  (filled ${rollupRows.toLocaleString('en-US')} rollup rows and ${Number(n).toLocaleString('en-US')} calls' columns in ${((performance.now() - start) / 1000).toFixed(1)} s)`,
  );

  const point = await time.sql(() =>
    deps.db.selectFrom('clients').select('id').where('id', '=', BIG_CLIENT_ID).execute(),
  );
  rows.push({ what: 'baseline: raw SQL point query p95', value: ms(point.p95), target: '-', ok: null });
  for (const range of ['30d', '60d'] as const) {
    const stats = await time.requests(`${base}/api/client/stats?dateRange=${range}`, headers);
    rows.push({
      what: `baseline: stats, ${range} (big client)`,
      value: ms(stats.p95),
      target: '-',
      ok: null,
    });
    const quality = await time.requests(`${base}/api/client/quality/summary?dateRange=${range}`, headers);
    rows.push({
      what: `quality summary, ${range} (big client, ${Number(n).toLocaleString('en-US')} calls measured)`,
      value: ms(quality.p95),
      target: '≤ 10 ms',
      ok: quality.p95 <= 10,
    });
  }
  const year = await time.requests(
    `${base}/api/client/quality/summary?from=${shiftDate(today, -364)}&to=${today}`,
    headers,
    50,
  );
  rows.push({
    what: 'quality summary, a whole year (365 days of rollups)',
    value: ms(year.p95),
    target: '-',
    ok: null,
  });
  const log = await time.requests(`${base}/api/client/calls?dateRange=30d`, headers);
  rows.push({ what: 'baseline: call log, 30 days', value: ms(log.p95), target: '-', ok: null });
  const slow = await time.requests(`${base}/api/client/calls?dateRange=30d&minLatencyP90Ms=3500`, headers);
  rows.push({
    what: 'call log, 30 days, slow answers only (p90 ≥ 3.5 s)',
    value: ms(slow.p95),
    target: '-',
    ok: null,
  });

  const plain = await writeCalls(deps, 'bench-4', timedCalls(WRITES, 'plain', false));
  const measured = await writeCalls(deps, 'bench-5', timedCalls(WRITES, 'timed', true));
  rows.push({
    what: `baseline: writing ${WRITES.toLocaleString('en-US')} four-minute calls (40 lines), no timing`,
    value: perSecond(WRITES, plain),
    target: '-',
    ok: null,
  });
  rows.push({
    what: 'writing the same calls with timed lines (measured, rollups kept)',
    value: perSecond(WRITES, measured),
    target: '-',
    ok: null,
  });

  // The backfill over the plain calls just written (their stored transcripts, `approx`).
  await deps.db
    .insertInto('client_walks')
    .values({ client_id: 'bench-4', kind: 'quality-backfill', total: WRITES })
    .execute();
  start = performance.now();
  await backfillClient(deps, 'bench-4', Date.now);
  rows.push({
    what: `backfill of ${WRITES.toLocaleString('en-US')} stored calls`,
    value: perSecond(WRITES, performance.now() - start),
    target: '-',
    ok: null,
  });
  return rows;
}
