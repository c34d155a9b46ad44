/**
 * `npm run restore -- FILE [--force] [--allow-unsigned]`: a backup (backup.ts) back
 * into DATA_DIR (SQLite) or the database DATABASE_URL names (PostgreSQL, through pg_restore).
 *
 * Everything that can refuse is checked before anything is replaced: the file is a backup of
 * this product, of the same kind of database, from this version or an older one; a plain one is
 * signed under this APP_SECRET (backup-file.ts `checkSignature`; an unsigned one only with
 * --allow-unsigned); its data
 * decrypts (BACKUP_ENCRYPTION_KEY) and matches the manifest's sha256; the target is empty (or
 * --force); APP_SECRET, when one is set, opens the backup's key check (the stored provider keys
 * are encrypted with it). Afterwards every table's row count is compared with the manifest's.
 * The server must be stopped (every instance): PostgreSQL's other connections are refused.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { DEMO_TENANT_ROWS_SQL } from '../clients/demo-tenant-rows';
import type { Config } from '../config';
import { KEY_CHECK_SETTING, opensKeyCheck } from '../crypto/key-check';
import { createSecretBox } from '../crypto/secrets';
import { KNOWN_MIGRATIONS } from '../db/migrate';
import { pgEnvironment, runPgTool } from './backup';
import {
  BackupError,
  type BackupManifest,
  backupSigningKey,
  checkSignature,
  extractPayload,
  readManifest,
} from './backup-file';

export interface RestoreResult {
  manifest: BackupManifest;
  target: string;
  /** Whether APP_SECRET opens the restored key check; null: no secret set yet, or none stored. */
  secretMatches: boolean | null;
  rows: Record<string, number>;
  /** The hidden demo tenant's rows among them, left out of the summary's counts. */
  demo: { clients: number; calls: number };
  ms: number;
}

export const SECRET_REMINDER =
  'APP_SECRET must be the one the backed-up installation used (stored provider keys and signing secrets are encrypted with it)';

export async function restoreBackup(
  config: Config,
  file: string,
  options: { force?: boolean; allowUnsigned?: boolean } = {},
): Promise<RestoreResult> {
  const started = performance.now();
  const { manifest } = await readManifest(file);
  checkSignature(manifest, backupSigningKey(config.appSecret), { allowUnsigned: options.allowUnsigned });
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.database !== kind)
    throw new BackupError(
      manifest.database === 'postgres'
        ? 'This is a PostgreSQL backup: set DATABASE_URL to the (empty) database to restore it into'
        : 'This is a SQLite backup: unset DATABASE_URL and set DATA_DIR to the (empty) folder to restore it into',
    );
  const unknown = manifest.migrations.names.filter((name) => !KNOWN_MIGRATIONS.includes(name));
  if (unknown.length > 0)
    throw new BackupError(
      `This backup was made by a newer version (${manifest.version}, migrations ${unknown.join(', ')}): restore it with that version`,
    );
  const restored =
    kind === 'sqlite'
      ? await restoreSqlite(config, file, options.force === true)
      : await restorePostgres(config, file, options.force === true);
  return { manifest, ...restored, ms: Math.round(performance.now() - started) };
}

/** Every table's rows as the manifest counted them; a difference names the first table. */
function checkRows(manifest: BackupManifest, rows: Record<string, number>): void {
  for (const [table, n] of Object.entries(manifest.rows)) {
    if (rows[table] !== n)
      throw new BackupError(
        `The restored ${table} has ${rows[table] ?? 0} rows where the backup counted ${n}`,
      );
  }
}

function secretCheck(config: Config, sealed: string | null): boolean | null {
  if (!config.appSecret) return null;
  const opens = opensKeyCheck(sealed, createSecretBox(config.appSecret));
  if (opens === false)
    throw new BackupError(
      `APP_SECRET is not the one this backup's installation used: set it (or DATA_DIR/app-secret) to that one; nothing was changed. ${SECRET_REMINDER}`,
    );
  return opens;
}

async function restoreSqlite(config: Config, file: string, force: boolean) {
  const target = path.join(config.dataDir, 'app.sqlite');
  if (existsSync(target) && (await stat(target)).size > 0 && !force)
    throw new BackupError(
      `${config.dataDir} already holds a database: restore into an empty DATA_DIR, or add --force to replace it`,
    );
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // Beside the target, so the last step is one rename on the same disk.
  const staging = path.join(config.dataDir, `.restore-${randomBytes(6).toString('hex')}.sqlite`);
  try {
    const manifest = await extractPayload(file, staging, config.operations.backupEncryptionKey);
    const copy = new SQLite(staging);
    let rows: Record<string, number>;
    let sealed: string | null;
    let demo: { clients: number; calls: number };
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok')
        throw new BackupError(`The backup's database is damaged (quick_check: ${String(check)})`);
      const tables = copy
        .prepare<[], { name: string }>(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
        )
        .all()
        .map((r) => r.name);
      rows = {};
      for (const table of tables)
        rows[table] =
          // better-sqlite3 answers an unknown row; count(*) as n is always one number.
          (copy.prepare(`select count(*) as n from "${table.replace(/"/g, '""')}"`).get() as { n: number }).n;
      checkRows(manifest, rows);
      // better-sqlite3 answers an unknown row; the query's two sums are always one row of numbers.
      demo = copy.prepare(DEMO_TENANT_ROWS_SQL).get() as { clients: number; calls: number };
      sealed = tables.includes('app_settings')
        ? (copy
            .prepare<[string], { value: string }>('select value from app_settings where key = ?')
            .get(KEY_CHECK_SETTING)?.value ?? null)
        : null;
    } finally {
      copy.close();
    }
    const secretMatches = secretCheck(config, sealed);
    for (const suffix of ['-wal', '-shm', '']) await rm(target + suffix, { force: true });
    await rename(staging, target);
    chmodSync(target, 0o600);
    return { target, rows, demo, secretMatches };
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  }
}

async function restorePostgres(config: Config, file: string, force: boolean) {
  // config.ts sets databaseUrl whenever the database is PostgreSQL, the only caller.
  const databaseUrl = config.databaseUrl as string;
  const { url, env } = pgEnvironment(databaseUrl);
  const target = url.replace(/\?.*$/, '');
  const work = await mkdtemp(path.join(tmpdir(), 'callanalytics-restore-'));
  const dump = path.join(work, 'payload.dump');
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const others = await otherConnections(client);
    if (others > 0)
      throw new BackupError(
        `${others} other connections use this database: stop every instance (and close other sessions) before restoring`,
      );
    const tables = await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = current_schema()',
    );
    if (tables.rows.length > 0 && !force)
      throw new BackupError(
        `The database already holds ${tables.rows.length} tables: restore into an empty database, or add --force to replace them`,
      );

    const manifest = await extractPayload(file, dump, config.operations.backupEncryptionKey);
    // The key check is read from the archive itself, before anything is replaced.
    const settings = await runPgTool(
      'pg_restore',
      ['--data-only', '--table=app_settings', '--file=-', dump],
      env,
    );
    const line = settings.split('\n').find((l) => l.startsWith(`${KEY_CHECK_SETTING}\t`));
    const secretMatches = secretCheck(config, line ? line.split('\t')[1] : null);

    if (tables.rows.length > 0) await dropEverything(client);
    await runPgTool(
      'pg_restore',
      [
        '--single-transaction',
        '--exit-on-error',
        '--no-owner',
        '--no-privileges',
        '--no-comments',
        '--no-password',
        `--dbname=${url}`,
        dump,
      ],
      env,
    );
    const rows: Record<string, number> = {};
    const restoredTables = await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = current_schema()',
    );
    for (const { name } of restoredTables.rows) {
      const { rows: n } = await client.query<{ n: string }>(
        `select count(*) as n from "${name.replace(/"/g, '""')}"`,
      );
      rows[name] = Number(n[0].n);
    }
    checkRows(manifest, rows);
    const demoRows = (await client.query<{ clients: string; calls: string }>(DEMO_TENANT_ROWS_SQL)).rows[0];
    const demo = { clients: Number(demoRows.clients), calls: Number(demoRows.calls) };
    return { target, rows, demo, secretMatches };
  } catch (error) {
    // What the pg client throws carries a code: a Node system error or PostgreSQL's SQLSTATE.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === '3D000')
      throw new BackupError(
        `Cannot reach the database DATABASE_URL names (${target}): create it and start PostgreSQL first`,
      );
    throw error;
  } finally {
    await client.end().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

/** Sessions of others on the database; one just closed may take a moment to leave the list. */
async function otherConnections(client: pg.Client): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const n = Number(rows[0].n);
    if (n === 0 || attempt >= 20) return n;
    await sleep(100);
  }
}

/** --force on PostgreSQL: the schema's tables, views, sequences and functions (not extensions'). */
async function dropEverything(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ statement: string }>(`
    select format('drop view if exists %I.%I cascade', schemaname, viewname) as statement
      from pg_views where schemaname = current_schema()
    union all
    select format('drop table if exists %I.%I cascade', schemaname, tablename)
      from pg_tables where schemaname = current_schema()
    union all
    select format('drop sequence if exists %I.%I cascade', sequence_schema, sequence_name)
      from information_schema.sequences where sequence_schema = current_schema()
    union all
    select format('drop function if exists %I.%I(%s) cascade', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = current_schema()
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`);
  await client.query('begin');
  try {
    for (const { statement } of rows) await client.query(statement);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

const count = (rows: Record<string, number>, table: string, less = 0) =>
  ((rows[table] ?? 0) - less).toLocaleString('en-US');

/** `npm run restore -- FILE [--force] [--allow-unsigned]`: what was restored and checked, and the APP_SECRET reminder. */
export async function runRestoreCommand(
  config: Config,
  file: string,
  options: { force: boolean; allowUnsigned?: boolean },
): Promise<number> {
  try {
    const result = await restoreBackup(config, path.resolve(file), options);
    const { manifest, rows } = result;
    console.log(
      `Restored ${path.basename(file)} (made ${manifest.createdAt} by version ${manifest.version}, ${manifest.migrations.applied} migrations) ` +
        `into ${result.target} in ${result.ms} ms; every table's rows match the backup (${count(rows, 'clients', result.demo.clients)} clients, ${count(rows, 'calls', result.demo.calls)} calls${result.demo.clients > 0 ? ', besides the demo' : ''}).`,
    );
    console.log(
      result.secretMatches === true
        ? 'APP_SECRET opens the stored keys. Start the server: it applies any newer migrations itself.'
        : `Before starting the server: ${SECRET_REMINDER}. Set APP_SECRET, or copy the source's DATA_DIR/app-secret here (mode 0600); a server with another secret refuses to start.`,
    );
    return 0;
  } catch (error) {
    // Everything this runs throws an Error; anything else would print its message as undefined.
    console.error(`Restore failed: ${(error as Error).message}`);
    return 1;
  }
}
