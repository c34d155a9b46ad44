/**
 * Issue 40's "done means" for backups: while provider deliveries arrive at about 100 a second,
 * `cli backup` (what `npm run backup` runs) completes in a process of its own; `cli restore`
 * puts the file into a fresh folder (SQLite) or a fresh database (PostgreSQL); the restored
 * product, started as the server starts, has the source's clients, and exactly the calls and
 * totals the source had at the backup's moment: every delivery acknowledged before the backup
 * began, none that was not acknowledged by its end, each call and each client's dashboard figures
 * equal to the source's for those calls. Encrypted with BACKUP_ENCRYPTION_KEY on the way.
 * Then what must be refused, with one line and nothing changed.
 */
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createDeps } from '../../src/server/bootstrap';
import { type Config, loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import { openDb } from '../../src/server/db/connect';
import { ensureDemoTenant } from '../../src/server/demo/demo-data';
import { createBackup } from '../../src/server/operations/backup';
import {
  BackupError,
  type BackupManifest,
  MAGIC,
  readManifest,
} from '../../src/server/operations/backup-file';
import { restoreBackup } from '../../src/server/operations/restore';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createClient, loginClient } from '../helpers/factories';
import { createScratchDatabase } from '../helpers/scratch-database';
import { TEST_DATABASE_URL, TEST_DB } from '../helpers/test-app';

const ROOT = path.resolve(__dirname, '../..');
const APP_SECRET = 'backup-test-secret-0123456789';
const BACKUP_KEY = 'backup-passphrase-for-tests-42';

interface Product {
  app: FastifyInstance;
  deps: AppDeps;
  config: Config;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A product on a database of its own, configured as the server and the CLI would be. */
async function startProduct(env: Record<string, string>): Promise<Product> {
  const config = loadConfig({ APP_SECRET, LOG_LEVEL: 'silent', ...env });
  const database = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 5 });
  const built = await createDeps(config, { db: database });
  const app = await buildApp(built.deps);
  await app.ready();
  return {
    app,
    deps: built.deps,
    config,
    env,
    async close() {
      await app.close();
      await built.close();
    },
  };
}

/** Where a product keeps its data: a folder, or a new database on the test server. */
async function freshPlace(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-backup-'));
  if (TEST_DB === 'sqlite')
    return {
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  const scratch = await createScratchDatabase(TEST_DATABASE_URL);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url },
    drop: async () => {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The CLI as `npm run backup` / `npm run restore` run it, in a process of its own. */
function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, APP_SECRET, LOG_LEVEL: 'silent', ...env },
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

const signature = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe(`backup while deliveries arrive, restored into a fresh place (${TEST_DB})`, () => {
  let source: Product;
  let sourcePlace: Awaited<ReturnType<typeof freshPlace>>;
  let targetPlace: Awaited<ReturnType<typeof freshPlace>>;
  let backupDir: string;
  const clients: { id: string; email: string; token: string; secret: string }[] = [];

  beforeAll(async () => {
    sourcePlace = await freshPlace();
    targetPlace = await freshPlace();
    backupDir = mkdtempSync(path.join(tmpdir(), 'cap-backups-'));
    source = await startProduct({
      ...sourcePlace.env,
      BACKUP_DIR: backupDir,
      BACKUP_ENCRYPTION_KEY: BACKUP_KEY,
    });
    for (let i = 0; i < 3; i++) {
      const secret = `whsec-${randomUUID()}`;
      const row = await createClient(source.deps, {
        webhook_secret_enc: source.deps.secrets.encrypt(secret),
        bland_api_key_enc: source.deps.secrets.encrypt(`key-${i}`),
      });
      clients.push({ id: row.id, email: row.email, token: row.webhook_token, secret });
    }
    // The hidden demo tenant is in the backup too, but not one of the agency's clients.
    await ensureDemoTenant(source.deps.db, source.deps.now());
  });
  afterAll(async () => {
    await source?.close();
    await sourcePlace?.drop();
    await targetPlace?.drop();
    rmSync(backupDir, { recursive: true, force: true });
  });

  it('completes the backup under load; the restored product equals the source at the backup moment', async () => {
    // Deliveries at ~100/s: one every 10 ms, round the clients, each a new call, every fifth a
    // repeat of an earlier one (merged, not counted twice).
    const acknowledged: { callId: string; at: number }[] = [];
    const sent: string[] = [];
    const bodies = new Map<string, string>();
    const owner = new Map<string, (typeof clients)[number]>();
    let running = true;
    let n = 0;
    const inFlight = new Set<Promise<void>>();
    const load = (async () => {
      while (running) {
        const client = clients[n % clients.length];
        // A repeat is the very same delivery again (a provider's retry): merged, the call unchanged.
        const repeat = n % 5 === 4 && sent.length > 0 ? sent[Math.max(0, sent.length - 3)] : null;
        const body = repeat
          ? (bodies.get(repeat) as string)
          : JSON.stringify(
              blandCallBody({ call_length: 1 + (n % 7) / 2, corrected_duration: String(60 + n) }),
            );
        const callId = JSON.parse(body).call_id as string;
        if (!repeat) {
          sent.push(callId);
          bodies.set(callId, body);
          owner.set(callId, client);
        }
        n++;
        const to = owner.get(callId) ?? client;
        const delivery = deliverWebhook(source.app, to.token, body, {
          'x-webhook-signature': signature(to.secret, body),
        }).then((res) => {
          expect(res.statusCode).toBe(200);
          acknowledged.push({ callId, at: performance.now() });
        });
        inFlight.add(delivery);
        delivery.finally(() => inFlight.delete(delivery));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await new Promise((r) => setTimeout(r, 500));

    const backupStarted = performance.now();
    const ackedBefore = new Set(acknowledged.map((a) => a.callId));
    const backup = await cli(['backup'], source.env);
    const backupEnded = performance.now();
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await load;
    await Promise.all([...inFlight]);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(
      /^Backup written: .*callanalytics-\d{8}-\d{6}-\d{3}Z\.(sqlite|postgres)\.backup \(.*encrypted, \d+ ms\)/,
    );
    const file = /Backup written: (\S+)/.exec(backup.out)?.[1] as string;
    const bytes = statSync(file).size;
    const deliveriesDuringBackup = acknowledged.filter(
      (a) => a.at >= backupStarted && a.at <= backupEnded,
    ).length;
    expect(deliveriesDuringBackup).toBeGreaterThan(0);
    const manifest = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
    expect(manifest).toMatchObject({
      format: 'callanalytics-backup',
      database: TEST_DB,
      encryption: { cipher: 'aes-256-gcm', kdf: 'scrypt' },
      migrations: { last: expect.stringMatching(/^\d{3}_/) },
    });
    expect(manifest.payload.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The payload is not readable without the key.
    expect(readFileSync(file).includes(Buffer.from(clients[0].email))).toBe(false);

    const restore = await cli(['restore', file], { ...targetPlace.env, BACKUP_ENCRYPTION_KEY: BACKUP_KEY });
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(
      /every table's rows match the backup \(3 clients, [\d,]+ calls, besides the demo\)/,
    );
    expect(restore.out).toContain('APP_SECRET opens the stored keys');
    console.log(
      `[figures ${TEST_DB}] backup under ~100 deliveries/s: ${backup.ms} ms wall (CLI ${/, (\d+) ms\)/.exec(backup.out)?.[1]} ms), ` +
        `${bytes} bytes, ${deliveriesDuringBackup} deliveries acknowledged meanwhile; restore ${restore.ms} ms wall`,
    );

    // The restored product starts as the server would (migrations, the APP_SECRET check).
    const restored = await startProduct(targetPlace.env);
    try {
      const restoredCalls = await restored.deps.db
        .selectFrom('calls')
        .select(['client_id', 'provider_call_id', 'duration_seconds', 'cost_micros', 'status', 'created_at'])
        .orderBy('provider_call_id')
        .execute();
      const ids = new Set(restoredCalls.map((c) => c.provider_call_id));
      // The backup's moment lies between its start and its end.
      for (const id of ackedBefore) expect(ids.has(id), `acknowledged before the backup: ${id}`).toBe(true);
      const ackedByEnd = new Set(acknowledged.filter((a) => a.at <= backupEnded).map((a) => a.callId));
      const unacknowledgedKept = [...ids].filter((id) => !ackedByEnd.has(id) && !sent.includes(id));
      expect(unacknowledgedKept).toEqual([]);
      expect(ids.size).toBeLessThan(new Set(sent).size); // later deliveries are not in it
      expect(restoredCalls.length).toBe(manifest.rows.calls);

      // Each restored call is the source's, field for field.
      const sourceCalls = await source.deps.db
        .selectFrom('calls')
        .select(['client_id', 'provider_call_id', 'duration_seconds', 'cost_micros', 'status', 'created_at'])
        .where('provider_call_id', 'in', [...ids])
        .orderBy('provider_call_id')
        .execute();
      expect(restoredCalls).toEqual(sourceCalls);

      // Clients: the same rows, keys still readable with the same APP_SECRET.
      const sourceClients = await source.deps.db.selectFrom('clients').selectAll().orderBy('id').execute();
      const restoredClients = await restored.deps.db
        .selectFrom('clients')
        .selectAll()
        .orderBy('id')
        .execute();
      expect(restoredClients).toEqual(sourceClients);
      const keyed = restoredClients.find((c) => c.id === clients[0].id);
      expect(restored.deps.secrets.decrypt(keyed?.bland_api_key_enc as string)).toMatch(/^key-\d$/);

      // Totals: each client's dashboard on the restored product equals the source's calls at the
      // backup's moment (the rollups came with the calls, in one snapshot).
      for (const client of clients) {
        const mine = sourceCalls.filter((c) => c.client_id === client.id);
        const cookie = await loginClient(restored.app, client.email);
        const stats = (
          await restored.app.inject({
            method: 'GET',
            url: '/api/client/stats?dateRange=30d',
            headers: { cookie },
          })
        ).json();
        expect(stats.totalCalls).toBe(mine.length);
        // Dollars to the cent, as the dashboard shows them.
        expect(stats.totalCost).toBe(Math.round(mine.reduce((sum, c) => sum + c.cost_micros, 0) / 1e4) / 100);
        const log = (
          await restored.app.inject({
            method: 'GET',
            url: '/api/client/calls?dateRange=30d&limit=1',
            headers: { cookie },
          })
        ).json();
        expect(log.pagination.total).toBe(mine.length);
      }
    } finally {
      await restored.close();
    }
  });
});

describe(`backup and restore refuse bad input with one line, changing nothing (${TEST_DB})`, () => {
  let source: Product;
  let place: Awaited<ReturnType<typeof freshPlace>>;
  let backupDir: string;
  let file: string;
  const places: Awaited<ReturnType<typeof freshPlace>>[] = [];
  const target = async () => {
    const p = await freshPlace();
    places.push(p);
    return loadConfig({ APP_SECRET, ...p.env, BACKUP_ENCRYPTION_KEY: BACKUP_KEY }, { readOnlyDataDir: true });
  };

  beforeAll(async () => {
    place = await freshPlace();
    backupDir = mkdtempSync(path.join(tmpdir(), 'cap-backups-'));
    source = await startProduct({ ...place.env, BACKUP_DIR: backupDir, BACKUP_ENCRYPTION_KEY: BACKUP_KEY });
    await createClient(source.deps);
    file = (await createBackup(source.config)).file;
  });
  afterAll(async () => {
    await source?.close();
    await place?.drop();
    for (const p of places) await p.drop();
    rmSync(backupDir, { recursive: true, force: true });
  });

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BackupError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  };

  it('refuses a missing BACKUP_DIR and a full one, leaving nothing behind', async () => {
    const missing = path.join(backupDir, 'not-mounted');
    const config = { ...source.config, operations: { ...source.config.operations, backupDir: missing } };
    expect(await refusal(createBackup(config))).toBe(
      `BACKUP_DIR ${missing} does not exist: create it (mkdir -p ${missing}) or set BACKUP_DIR to another folder`,
    );
    expect(existsSync(missing)).toBe(false);

    // A full disk: the partial file is /dev/full, where every write fails with ENOSPC.
    const fullDir = mkdtempSync(path.join(tmpdir(), 'cap-full-'));
    const at = new Date('2030-01-02T03:04:05.006Z');
    const name = `callanalytics-20300102-030405-006Z.${TEST_DB}.backup`;
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/dev/full', path.join(fullDir, `.partial-${name}`));
    const full = { ...source.config, operations: { ...source.config.operations, backupDir: fullDir } };
    expect(await refusal(createBackup(full, { now: () => at }))).toBe(
      `BACKUP_DIR ${fullDir} is full: free some space (or set BACKUP_KEEP lower); nothing was kept`,
    );
    expect(readdirSync(fullDir)).toEqual([]);
    rmSync(fullDir, { recursive: true, force: true });
  });

  it('refuses a foreign file, a damaged one and a wrong key, leaving the target empty', async () => {
    const config = await target();
    const foreign = path.join(backupDir, 'notes.txt');
    writeFileSync(foreign, 'not a backup at all');
    expect(await refusal(restoreBackup(config, foreign))).toBe(
      `${foreign} is not a backup of this product (made by npm run backup)`,
    );
    const damaged = path.join(backupDir, 'damaged.backup');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(damaged, bytes);
    expect(await refusal(restoreBackup(config, damaged))).toBe(
      'Cannot decrypt this backup: BACKUP_ENCRYPTION_KEY is not the key it was made with, or the file was changed',
    );
    const wrongKey = {
      ...config,
      operations: { ...config.operations, backupEncryptionKey: 'another-passphrase-000' },
    };
    expect(await refusal(restoreBackup(wrongKey, file))).toMatch(/^Cannot decrypt this backup/);
    const noKey = { ...config, operations: { ...config.operations, backupEncryptionKey: null } };
    expect(await refusal(restoreBackup(noKey, file))).toBe(
      'This backup is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was made with',
    );
    await expectEmpty(config);
  });

  it('refuses another APP_SECRET, and a non-empty target without --force; --force replaces it', async () => {
    const config = await target();
    const otherSecret = { ...config, appSecret: 'a-different-secret-0123456' };
    expect(await refusal(restoreBackup(otherSecret, file))).toMatch(
      /^APP_SECRET is not the one this backup's installation used: .*nothing was changed\. APP_SECRET must be/,
    );
    await expectEmpty(config);
    const first = await restoreBackup(config, file);
    expect(first.secretMatches).toBe(true);
    expect(first.rows.clients).toBe(1);
    expect(await refusal(restoreBackup(config, file))).toMatch(/already holds .*add --force to replace/);
    const again = await restoreBackup(config, file, { force: true });
    expect(again.rows).toEqual(first.rows);
  });
});

describe(`a plain backup is signed: a tampered one is refused (${TEST_DB})`, () => {
  let source: Product;
  let place: Awaited<ReturnType<typeof freshPlace>>;
  let backupDir: string;
  let file: string;
  const places: Awaited<ReturnType<typeof freshPlace>>[] = [];
  const target = async () => {
    const p = await freshPlace();
    places.push(p);
    return loadConfig({ APP_SECRET, ...p.env }, { readOnlyDataDir: true });
  };

  beforeAll(async () => {
    place = await freshPlace();
    backupDir = mkdtempSync(path.join(tmpdir(), 'cap-backups-'));
    // No BACKUP_ENCRYPTION_KEY: only the signature vouches for the file.
    source = await startProduct({ ...place.env, BACKUP_DIR: backupDir });
    await createClient(source.deps, { company_name: 'Honest Co' });
    file = (await createBackup(source.config)).file;
  });
  afterAll(async () => {
    await source?.close();
    await place?.drop();
    for (const p of places) await p.drop();
    rmSync(backupDir, { recursive: true, force: true });
  });

  /**
   * What someone who can write the file does: changes its data, then recomputes the manifest's
   * size and sha256 (and may drop the signature), keeping everything else.
   */
  async function tampered(
    name: string,
    edit: (plain: Buffer) => Buffer,
    manifestEdit: (m: BackupManifest) => BackupManifest = (m) => m,
  ): Promise<string> {
    const { manifest, payloadOffset } = await readManifest(file);
    const stored = readFileSync(file).subarray(payloadOffset);
    const gzip = manifest.payload.compression === 'gzip';
    const plain = edit(gzip ? gunzipSync(stored) : stored);
    const next = manifestEdit({
      ...manifest,
      payload: {
        ...manifest.payload,
        bytes: plain.length,
        sha256: createHash('sha256').update(plain).digest('hex'),
      },
    });
    const json = Buffer.from(JSON.stringify(next), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(json.length);
    const out = path.join(backupDir, name);
    writeFileSync(out, Buffer.concat([MAGIC, length, json, gzip ? gzipSync(plain) : plain]));
    return out;
  }

  /** SQLite: a row edited and a trigger added, with SQLite itself. PostgreSQL: bytes of the dump. */
  function editRows(plain: Buffer): Buffer {
    if (TEST_DB === 'postgres') {
      const copy = Buffer.from(plain);
      copy[copy.length - 200] ^= 0x01;
      return copy;
    }
    const work = path.join(mkdtempSync(path.join(tmpdir(), 'cap-tamper-')), 'copy.sqlite');
    writeFileSync(work, plain);
    const db = new SQLite(work);
    db.pragma('journal_mode = DELETE');
    db.prepare("update clients set company_name = 'Evil Co'").run();
    db.exec(
      "create trigger tampered after insert on calls begin update clients set company_name = 'Evil Co'; end",
    );
    db.close();
    const edited = readFileSync(work);
    rmSync(path.dirname(work), { recursive: true, force: true });
    return edited;
  }

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BackupError);
    return (error as Error).message;
  };

  it('signs the manifest under a key from APP_SECRET; the untouched file restores', async () => {
    const { manifest } = await readManifest(file);
    expect(manifest.encryption).toBeNull();
    expect(manifest.signature).toMatchObject({
      alg: 'hmac-sha256',
      value: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const restored = await restoreBackup(await target(), file);
    expect(restored.rows.clients).toBe(1);
  });

  it('refuses edited rows and an added trigger with the checksum recomputed, changing nothing', async () => {
    const edited = await tampered('edited.backup', editRows);
    const config = await target();
    expect(await refusal(restoreBackup(config, edited))).toMatch(
      /^This backup’s signature does not verify: the file was changed after it was made/,
    );
    await expectEmpty(config);
    // Through the CLI too: one line, exit 1.
    const run = await cli(['restore', edited], { ...places.at(-1)!.env });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/Restore failed: This backup’s signature does not verify/);
    await expectEmpty(config);
  });

  it('refuses another APP_SECRET and a removed signature; --allow-unsigned takes an unsigned one', async () => {
    const config = await target();
    expect(await refusal(restoreBackup({ ...config, appSecret: 'another-secret-0123456789' }, file))).toMatch(
      /^This backup’s signature does not verify/,
    );
    const stripped = await tampered('stripped.backup', editRows, ({ signature: _dropped, ...rest }) => rest);
    expect(await refusal(restoreBackup(config, stripped))).toMatch(
      /^This backup is not signed .*with --allow-unsigned; nothing was changed$/,
    );
    await expectEmpty(config);
    // An old backup, made before signatures: unsigned but untouched. Only when asked explicitly.
    const old = await tampered(
      'old.backup',
      (plain) => plain,
      ({ signature: _dropped, ...rest }) => rest,
    );
    expect(await refusal(restoreBackup(config, old))).toMatch(/^This backup is not signed/);
    const run = await cli(['restore', old, '--allow-unsigned'], { ...places.at(-1)!.env });
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("every table's rows match the backup (1 clients");
  });
});

/** Nothing was restored: no database file, or no table in the database. */
async function expectEmpty(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    expect(existsSync(path.join(config.dataDir, 'app.sqlite'))).toBe(false);
    expect(readdirSync(config.dataDir).filter((f) => !f.startsWith('.'))).toEqual([]);
    return;
  }
  const database = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    expect(await database.db.introspection.getTables()).toEqual([]);
  } finally {
    await database.close();
  }
}
