/**
 * Issue 40 at scale: a backup of the benchmark's data set taken while provider deliveries arrive
 * at 100 a second through the real server (`cli backup` in its own process, as `npm run backup`
 * runs it, encrypted), the deliveries' answer times meanwhile beside the same load without a
 * backup, the file's size, a restore of it into a fresh folder or database (`cli restore`, which
 * compares every table's rows), and the size of a /metrics answer. `npm run bench -- --operations`
 * (both databases), figures printed.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AppDeps } from '../src/server/context';
import { blandCallBody } from '../tests/helpers/bland';
import { createScratchDatabase } from '../tests/helpers/scratch-database';
import { BIG_CLIENT_ID, benchWebhookToken } from './dataset';

interface Row {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

const SECRET = 'whsec-bench-operations';
const RATE = 100;

function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      out += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, out, ms: Math.round(performance.now() - started) }),
    );
  });
}

/** Deliveries at RATE a second until `until` resolves; each answer's time in ms. */
async function deliveriesDuring(base: string, token: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  until.finally(() => {
    done = true;
  });
  const inFlight = new Set<Promise<void>>();
  while (!done) {
    const body = JSON.stringify(blandCallBody());
    const started = performance.now();
    const sent = fetch(`${base}/api/webhooks/voice/${token}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      },
      body,
    }).then(async (res) => {
      await res.arrayBuffer();
      if (res.status === 200) times.push(performance.now() - started);
    });
    inFlight.add(sent);
    sent.finally(() => inFlight.delete(sent));
    await new Promise((r) => setTimeout(r, 1000 / RATE));
  }
  await Promise.all(inFlight);
  return times;
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function operationsRows(
  deps: AppDeps,
  base: string,
  env: { DATA_DIR: string; DATABASE_URL?: string; APP_SECRET: string },
): Promise<Row[]> {
  const rows: Row[] = [];
  const client = await deps.db
    .updateTable('clients')
    .set({ webhook_secret_enc: deps.secrets.encrypt(SECRET) })
    .where('id', '=', BIG_CLIENT_ID)
    .returning('id')
    .executeTakeFirstOrThrow();
  const calls = await deps.db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();

  // The same load for ten seconds without a backup: what the backup's figures compare with.
  const quiet = await deliveriesDuring(
    base,
    benchWebhookToken(client.id),
    new Promise((r) => setTimeout(r, 10_000)),
  );
  rows.push({
    what: `baseline: deliveries at ${RATE}/s, answer p95 (no backup running)`,
    value: `${p95(quiet).toFixed(1)} ms`,
    target: '-',
    ok: null,
  });

  const backupDir = mkdtempSync(path.join(tmpdir(), 'cap-bench-backups-'));
  const key = 'bench-backup-passphrase-0123';
  const backup = cli(['backup'], {
    ...env,
    BACKUP_DIR: backupDir,
    BACKUP_ENCRYPTION_KEY: key,
    BACKUP_KEEP: '5',
  });
  const during = await deliveriesDuring(base, benchWebhookToken(client.id), backup);
  const result = await backup;
  const file = /Backup written: (\S+)/.exec(result.out)?.[1];
  const bytes = file ? statSync(file).size : 0;
  rows.push({
    what: `npm run backup of ${Number(calls.n).toLocaleString()} calls while deliveries arrive at ${RATE}/s (wall time, process start included)`,
    value:
      result.code === 0
        ? `${(result.ms / 1000).toFixed(1)} s, ${mb(bytes)} encrypted`
        : `failed: ${result.out.trim()}`,
    target: 'completes',
    ok: result.code === 0,
  });
  rows.push({
    what: `deliveries during the backup: ${during.length} answered, p95`,
    value: `${p95(during).toFixed(1)} ms`,
    target: '-',
    ok: null,
  });

  // Restore into a fresh place.
  const place = mkdtempSync(path.join(tmpdir(), 'cap-bench-restore-'));
  let drop = async () => {};
  let target: Record<string, string> = { DATA_DIR: place };
  if (env.DATABASE_URL) {
    const scratch = await createScratchDatabase(env.DATABASE_URL, 'bench_restore');
    target = { ...target, DATABASE_URL: scratch.url };
    drop = scratch.drop;
  }
  if (file) {
    const restore = await cli(['restore', file], {
      APP_SECRET: env.APP_SECRET,
      BACKUP_ENCRYPTION_KEY: key,
      ...target,
    });
    rows.push({
      what: 'npm run restore of that file into a fresh place (every table’s rows compared)',
      value: restore.code === 0 ? `${(restore.ms / 1000).toFixed(1)} s` : `failed: ${restore.out.trim()}`,
      target: 'completes',
      ok: restore.code === 0,
    });
  }
  await drop();
  rmSync(place, { recursive: true, force: true });
  rmSync(backupDir, { recursive: true, force: true });

  const text = await deps.metrics.render();
  rows.push({
    what: `GET /metrics answer after the run (${text.split('\n').filter((l) => l && !l.startsWith('#')).length} series)`,
    value: `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB (${(gzipSync(text).length / 1024).toFixed(1)} KB gzipped)`,
    target: '-',
    ok: null,
  });
  return rows;
}
