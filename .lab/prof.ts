import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../src/server/db/connect';
import { migrateToLatest } from '../src/server/db/migrate';
import { createDataset } from '../bench/dataset';
import { createScratchDatabase } from '../tests/helpers/scratch-database';
import { listPortfolioClients } from '../src/server/clients/clients-repository';
import { portfolioAnalytics, sumsByClient, analyticsRange } from '../src/server/agency/portfolio';
import { clientsAtRisk } from '../src/server/agency/at-risk';

const dialect = process.argv[2] as 'sqlite' | 'postgres';
const dataDir = mkdtempSync(path.join(tmpdir(), 'prof-'));
const database = dialect === 'postgres'
  ? openDb({ databaseUrl: (await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'prof')).url, dataDir, poolSize: 10 })
  : openDb({ databaseUrl: null, dataDir });
await migrateToLatest(database.db);
const now = Date.now();
await createDataset(database, { clients: 1000, calls: 2000000, bigClientCalls: 20000 }, now);
const db = database.db;
const time = async (what: string, f: () => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < 30; i++) { const t = performance.now(); await f(); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b);
  console.log(what.padEnd(30), 'p50', xs[15].toFixed(2), 'p95', xs[28].toFixed(2));
};
const range = analyticsRange({ dateRange: '30d' } as never, now);
const clients = await listPortfolioClients(db);
const ids = clients.map((c) => c.id);
await time('listPortfolioClients', () => listPortfolioClients(db));
await time('sumsByClient', () => sumsByClient(db, range, ids));
await time('portfolioAnalytics 30d', () => portfolioAnalytics(db, { dateRange: '30d' } as never, now));
await time('portfolioAnalytics 90d', () => portfolioAnalytics(db, { dateRange: '90d' } as never, now));
await time('JSON 30d', async () => JSON.stringify(await portfolioAnalytics(db, { dateRange: '30d' } as never, now)));
const { listRiskFacts } = await import('../src/server/clients/clients-repository');
const { runningTotalsAt } = await import('../src/server/agency/portfolio');
await time('listRiskFacts', () => listRiskFacts(db));
await time('runningTotalsAt 2', () => runningTotalsAt(db, ids, ['2026-11-26', '2026-10-31']));
const { sql } = await import('kysely');
const zlib = await import('node:zlib');
const D = new Date(now).toISOString().slice(0, 10);
await time('raw 3000 rows', () => db.selectFrom('client_call_days').selectAll().where('day', 'in', [D, '2026-10-26', '2026-09-26']).execute());
const cols = ['cum_calls','cum_seconds','cum_cost_micros','cum_provider_micros','cum_answered','cum_failed'];
const pts = [D, '2026-10-26', '2026-09-26'];
const agg = sql.join([...pts.flatMap((p, i) => cols.map((c) => sql`sum(case when day = ${p} then ${sql.ref(c)} end) as ${sql.ref(`p${i}_${c}`)}`))]);
await time('grouped 1000 rows', () => sql`select client_id, ${agg} from client_call_days where day in (${sql.join(pts)}) group by client_id`.execute(db));
const diff = sql.join(cols.flatMap((c) => [sql`sum(case when day = ${pts[0]} then ${sql.ref(c)} when day = ${pts[1]} then -${sql.ref(c)} else 0 end)`, sql`sum(case when day = ${pts[1]} then ${sql.ref(c)} when day = ${pts[2]} then -${sql.ref(c)} else 0 end)`]));
await time('grouped diff', () => sql`select client_id, count(*) as n, ${diff} from client_call_days where day in (${sql.join(pts)}) group by client_id`.execute(db));
await time('clients no last', () => db.selectFrom('clients').select(['id', 'first_name', 'last_name', 'company_name', 'email', 'is_active']).where('onboarding_status', '=', 'active').execute());
const body = JSON.stringify(await portfolioAnalytics(db, { dateRange: '30d' } as never, now));
console.log('bytes', body.length);
await time('brotli q4', async () => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }));
await time('gzip', async () => zlib.gzipSync(body));
await time('atRisk', () => clientsAtRisk(db, now, 'Bland'));
process.exit(0);
