import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDb } from '../src/server/db/connect';
import { migrateToLatest } from '../src/server/db/migrate';
import { createDataset, BIG_CLIENT_ID } from '../bench/dataset';
import { listCalls } from '../src/server/calls/call-log';
import { CallsQuery } from '../src/contract/calls';
import { createScratchDatabase } from '../tests/helpers/scratch-database';

const dialect = process.argv[2] ?? 'sqlite';
const dataDir = process.env.PROF_DIR ?? mkdtempSync(path.join(tmpdir(), 'prof-'));
let database;
if (dialect === 'postgres') {
  const scratch = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/test', 'prof');
  database = openDb({ databaseUrl: scratch.url, dataDir, poolSize: 4 });
} else database = openDb({ databaseUrl: null, dataDir });
await migrateToLatest(database.db);
const now = Date.now();
let t = performance.now();
const fresh = !process.env.PROF_DIR;
if (fresh) await createDataset(database, { clients: 10, calls: 1_100_000, bigClientCalls: 1_000_000 }, now);
console.log('dataset', ((performance.now() - t) / 1000).toFixed(1), 's', dataDir);
const from60 = now - 60 * 86_400_000;
for (const search of ['refund', 'refu*', '"damaged parcel"', 'order']) {
  const q = CallsQuery.parse({ status: 'all', startDate: new Date(from60).toISOString(), endDate: new Date(now).toISOString(), search });
  const times = [];
  let total = 0;
  for (let i = 0; i < 12; i++) {
    t = performance.now();
    const page = await listCalls(database.db, BIG_CLIENT_ID, q);
    times.push(performance.now() - t);
    total = page.pagination.total;
  }
  times.sort((a, b) => a - b);
  console.log(search, total, times.map((x) => x.toFixed(1)).slice(0, 11).join(' '));
}
process.exit(0);
