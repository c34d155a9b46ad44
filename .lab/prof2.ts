import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../src/server/db/connect';
import { migrateToLatest } from '../src/server/db/migrate';
import { createDataset } from '../bench/dataset';
import { createScratchDatabase } from '../tests/helpers/scratch-database';
import { listPortfolioClients } from '../src/server/clients/clients-repository';
import { portfolioAnalytics } from '../src/server/agency/portfolio';

const dialect = process.argv[2] as 'sqlite' | 'postgres';
const dataDir = mkdtempSync(path.join(tmpdir(), 'prof-'));
const database = dialect === 'postgres'
  ? openDb({ databaseUrl: (await createScratchDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'prof2')).url, dataDir, poolSize: 10 })
  : openDb({ databaseUrl: null, dataDir });
await migrateToLatest(database.db);
const now = Date.now();
await createDataset(database, { clients: 1000, calls: Number(process.argv[3] ?? 2000000), bigClientCalls: 20000 }, now);
const db = database.db;
const time = async (what: string, f: () => Promise<unknown>, n = 100) => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await f(); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b);
  console.log(what.padEnd(30), 'p50', xs[Math.floor(n / 2)].toFixed(2), 'p95', xs[Math.floor(n * 0.95)].toFixed(2));
};
await time('listPortfolioClients', () => listPortfolioClients(db));
await time('clients without last', () => db.selectFrom('clients').select(['id', 'first_name', 'last_name', 'company_name', 'email', 'is_active']).where('onboarding_status', '=', 'active').execute());
await time('analytics 30d + JSON', async () => JSON.stringify(await portfolioAnalytics(db, { dateRange: '30d' } as never, now)));
await database.close();
process.exit(0);
