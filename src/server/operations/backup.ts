/**
 * `npm run backup` and the scheduled backups: a consistent copy of the database while
 * the product serves, into BACKUP_DIR under a timestamped name, with its manifest (backup-file.ts).
 *   SQLite     — SQLite's online backup API (better-sqlite3's backup()) on a connection of its
 *                own, in one step: one read snapshot (WAL lets the server keep writing), never
 *                restarted by the server's writes;
 *   PostgreSQL — `pg_dump --format=custom` inside a snapshot this process exports, so the row
 *                counts in the manifest are the dump's own; without pg_dump, one line saying how
 *                to install it.
 * Written as `.partial-…` and renamed once synced: a file with a backup's name is a whole backup.
 * Nothing outside BACKUP_DIR is changed but the `backup_last` setting (backup-state.ts).
 */
import { spawn } from 'node:child_process';
import { constants, existsSync, readFileSync } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config';
import { openDb } from '../db/connect';
import { BackupError, type BackupManifest, backupSigningKey, writeBackupFile } from './backup-file';
import { recordBackup } from './backup-state';

export const BACKUP_NAME = /^callanalytics-\d{8}-\d{6}-\d{3}Z\.(sqlite|postgres)\.backup$/;

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  /** Files removed by BACKUP_KEEP. */
  pruned: string[];
  ms: number;
}

export interface BackupOptions {
  now?: () => Date;
  /** Scheduled backups keep BACKUP_KEEP; a manual one prunes the same way (default true). */
  prune?: boolean;
}

/** The product's version, from the package.json above this module (source or bundle alike). */
export function productVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      // JSON.parse is any: a package.json's name and version are strings, and a missing one is allowed for.
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'call-analytics-platform') return pkg.version ?? 'unknown';
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

export function backupName(at: Date, database: 'sqlite' | 'postgres'): string {
  const iso = at.toISOString(); // 2026-11-27T03:00:00.123Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}Z`;
  return `callanalytics-${stamp}.${database}.backup`;
}

/** The default folder is made on first use; a folder someone named must exist (an unmounted disk must not be written around). */
async function ensureBackupDir(dir: string): Promise<void> {
  if (!existsSync(dir)) {
    if (dir !== path.resolve('./backups'))
      throw new BackupError(
        `BACKUP_DIR ${dir} does not exist: create it (mkdir -p ${dir}) or set BACKUP_DIR to another folder`,
      );
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
  if (!(await stat(dir)).isDirectory()) throw new BackupError(`BACKUP_DIR ${dir} is not a folder`);
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new BackupError(`BACKUP_DIR ${dir} is not writable by this user`);
  }
}

export async function createBackup(config: Config, options: BackupOptions = {}): Promise<BackupResult> {
  const started = performance.now();
  const dir = config.operations.backupDir;
  await ensureBackupDir(dir);
  const database = config.databaseUrl ? 'postgres' : 'sqlite';
  const name = backupName((options.now ?? (() => new Date()))(), database);
  const target = path.join(dir, name);
  const partial = path.join(dir, `.partial-${name}`);
  const payload = path.join(dir, `.partial-${name}.data`);
  try {
    const copy =
      database === 'sqlite'
        ? await copySqlite(path.join(config.dataDir, 'app.sqlite'), payload)
        : // config.ts sets databaseUrl whenever the database is PostgreSQL.
          await dumpPostgres(config.databaseUrl as string, payload);
    const { manifest, bytes } = await writeBackupFile(
      partial,
      payload,
      {
        version: productVersion(),
        createdAt: new Date().toISOString(),
        database,
        payloadKind: database === 'sqlite' ? 'sqlite-file' : 'pg_dump-custom',
        migrations: {
          applied: copy.migrations.length,
          last: copy.migrations.at(-1) ?? null,
          names: copy.migrations,
        },
        rows: copy.rows,
        ...(copy.tool ? { tool: copy.tool } : {}),
      },
      config.operations.backupEncryptionKey,
      // pg_dump's custom format is compressed already; a SQLite file is not.
      database === 'sqlite',
      backupSigningKey(config.appSecret),
    );
    await rm(payload, { force: true });
    await rename(partial, target);
    await writeFile(`${target}.json`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await remember(config, { finishedAt: Date.now(), file: target, bytes });
    const pruned = options.prune === false ? [] : await prune(dir, config.operations.backupKeep);
    return { file: target, bytes, manifest, pruned, ms: Math.round(performance.now() - started) };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(payload, { force: true });
    throw asBackupError(error, dir);
  }
}

function asBackupError(error: unknown, dir: string): Error {
  if (error instanceof BackupError) return error;
  // What fs and the database client throw are Node system errors, which carry a code.
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new BackupError(
      `BACKUP_DIR ${dir} is full: free some space (or set BACKUP_KEEP lower); nothing was kept`,
    );
  if (code === 'EACCES' || code === 'EROFS')
    return new BackupError(`Cannot write into BACKUP_DIR ${dir} (${code})`);
  return error instanceof Error ? error : new Error(String(error));
}

interface Copy {
  migrations: string[];
  rows: Record<string, number>;
  tool?: string;
}

async function copySqlite(source: string, payload: string): Promise<Copy> {
  if (!existsSync(source) || (await stat(source)).size === 0)
    throw new BackupError(`No database at ${source}: nothing to back up (is DATA_DIR right?)`);
  const sqlite = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    // All pages in one step: one read snapshot, so writes meanwhile never restart the copy.
    await sqlite.backup(payload, { progress: () => 0x7fffffff });
  } finally {
    sqlite.close();
  }
  // The copy on its own: no WAL beside it, its counts are the copy's.
  const copy = new SQLite(payload);
  try {
    copy.pragma('journal_mode = DELETE');
    const migrations = hasTable(copy, 'kysely_migration')
      ? copy
          .prepare<[], { name: string }>('select name from kysely_migration order by name')
          .all()
          .map((r) => r.name)
      : [];
    const tables = copy
      .prepare<[], { name: string }>(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .all()
      .map((r) => r.name);
    const rows: Record<string, number> = {};
    for (const table of tables) {
      rows[table] =
        // better-sqlite3 answers an unknown row; count(*) as n is always one number.
        (copy.prepare(`select count(*) as n from "${table.replace(/"/g, '""')}"`).get() as { n: number }).n;
    }
    return { migrations, rows };
  } finally {
    copy.close();
  }
}

function hasTable(sqlite: SQLite.Database, name: string): boolean {
  return (
    sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined
  );
}

/**
 * libpq's environment for a URL: the password stays out of the process list. The rest of the
 * child's environment is this process's (PATH, locale), passed through, not read as configuration.
 */
export function pgEnvironment(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL client tool; a missing one is a BackupError saying how to install it. */
export function runPgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} is not installed, and PostgreSQL backups need it: apt-get install postgresql-client (the server's major version or newer), then try again`,
            )
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve(out);
      const last = err.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${code}`;
      reject(new BackupError(`${tool} failed: ${last.replace(/^(pg_dump|pg_restore): (error: )?/, '')}`));
    });
  });
}

async function dumpPostgres(databaseUrl: string, payload: string): Promise<Copy> {
  const { url, env } = pgEnvironment(databaseUrl);
  const tool = (await runPgTool('pg_dump', ['--version'], env)).trim();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The dump and the counts see one snapshot: this transaction exports it, pg_dump imports it.
    await client.query('begin isolation level repeatable read read only');
    const { rows: snap } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const migrations = (
      await client
        .query<{ name: string }>(
          "select name from kysely_migration where exists (select 1 from information_schema.tables where table_schema = current_schema() and table_name = 'kysely_migration') order by name",
        )
        .catch((): { rows: { name: string }[] } => ({ rows: [] }))
    ).rows.map((r) => r.name);
    const { rows: tables } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
    );
    const rows: Record<string, number> = {};
    for (const { name } of tables) {
      const { rows: n } = await client.query<{ n: string }>(
        `select count(*) as n from "${name.replace(/"/g, '""')}"`,
      );
      rows[name] = Number(n[0].n);
    }
    await runPgTool(
      'pg_dump',
      [
        '--format=custom',
        `--snapshot=${snap[0].id}`,
        `--file=${payload}`,
        '--no-password',
        `--dbname=${url}`,
      ],
      env,
    );
    await client.query('commit');
    return { migrations, rows, tool };
  } finally {
    await client.end().catch(() => {});
  }
}

/** For the metrics' "last backup" gauges; the backup stands whether or not this is written. */
async function remember(
  config: Config,
  last: { finishedAt: number; file: string; bytes: number },
): Promise<void> {
  const database = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    await recordBackup(database.db, last);
  } catch (error) {
    console.warn(
      // Everything this runs throws an Error; anything else would print its message as undefined.
      `The backup is written, but its time was not recorded for the metrics: ${(error as Error).message}`,
    );
  } finally {
    await database.close();
  }
}

/** Keeps the newest `keep` backups in `dir` (with their .json); answers what it removed. */
export async function prune(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => BACKUP_NAME.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) {
    await rm(path.join(dir, name), { force: true });
    await rm(path.join(dir, `${name}.json`), { force: true });
  }
  return old;
}

/** nice(1)'s usual "background job" level. */
const BACKUP_NICENESS = 10;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `npm run backup`: one line on success (where, how big, how long), one line on failure. */
export async function runBackupCommand(config: Config): Promise<number> {
  // Below the server on a shared machine: the copy, the encryption and pg_dump (a child, which
  // inherits it) yield the CPU to requests.
  try {
    setPriority(BACKUP_NICENESS);
  } catch {
    // Not allowed here (some containers): the backup runs at normal priority.
  }
  try {
    const result = await createBackup(config);
    const { manifest } = result;
    console.log(
      `Backup written: ${result.file} (${megabytes(result.bytes)}, ${manifest.database}, ${manifest.migrations.applied} migrations, ` +
        `${manifest.encryption ? 'encrypted' : 'not encrypted'}, ${result.ms} ms)` +
        (result.pruned.length > 0
          ? `; removed ${result.pruned.length} older (BACKUP_KEEP=${config.operations.backupKeep})`
          : ''),
    );
    if (!manifest.encryption)
      console.log(
        'It holds password hashes and encrypted keys in clear: keep it private, or set BACKUP_ENCRYPTION_KEY.',
      );
    return 0;
  } catch (error) {
    // Everything this runs throws an Error; anything else would print its message as undefined.
    console.error(`Backup failed: ${(error as Error).message}`);
    return 1;
  }
}
