/**
 * The migrated database every API test file starts from, built once per test run (the API
 * project's globalSetup, db-template-setup.ts) instead of once per file: a SQLite file that each
 * file copies, or a PostgreSQL database each file's database is created from (`CREATE DATABASE …
 * TEMPLATE`). Only migrated: seeding, the key check and everything else stays per app, so a copy
 * is exactly what an empty database becomes after `migrateToLatest`.
 *
 * Keyed by a hash of the migration files and their list: a changed or added migration names a new
 * template, so a stale one is never used. Built under a temporary name and renamed into place,
 * so runs started together (parallel workers, other checkouts on the same PostgreSQL server) see
 * either no template or a complete one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDb } from '../../src/server/db/connect';
import { migrateToLatest } from '../../src/server/db/migrate';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dbFolder = path.join(root, 'src', 'server', 'db');

/** Templates not used for this long are dropped from the PostgreSQL server by the next run. */
const UNUSED_TEMPLATE_DAYS = 2;

/** Twelve hex digits over migrate.ts (the list) and every migration file's name and text. */
export function migrationsKey(dbDir = dbFolder): string {
  const hash = createHash('sha256').update(readFileSync(path.join(dbDir, 'migrate.ts')));
  const folder = path.join(dbDir, 'migrations');
  for (const name of readdirSync(folder).sort()) {
    hash.update(`\0${name}\0`).update(readFileSync(path.join(folder, name)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** The migrated SQLite file for this migration list, under `folder`; built when missing. */
export async function prepareSqliteTemplate(folder: string): Promise<string> {
  const file = path.join(folder, `sqlite-${migrationsKey()}.sqlite`);
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const building = `building-${randomUUID()}.sqlite`;
  const database = openDb({ databaseUrl: null, dataDir: folder, sqliteFile: building });
  try {
    await migrateToLatest(database.db);
    // The last connection's close checkpoints the WAL into the file and removes it.
    await database.close();
    renameSync(path.join(folder, building), file);
  } finally {
    await database.close().catch(() => {});
    for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(folder, building + suffix), { force: true });
  }
  return file;
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The name of the migrated PostgreSQL template for this migration list on the server `serverUrl`
 * names; built when missing. Its comment holds when a run last used it, so that templates of
 * older migration lists (other branches, earlier commits) are dropped once unused for days.
 */
export async function preparePostgresTemplate(serverUrl: string): Promise<string> {
  const template = `tpl_${migrationsKey()}`;
  const usedNow = `comment on database ${template} is 'test template, last used ${new Date().toISOString()}'`;
  const exists = await onServer(serverUrl, async (client) => {
    await dropUnusedTemplates(client, template);
    const found = await client.query('select 1 from pg_database where datname = $1', [template]);
    if (found.rowCount) await client.query(usedNow);
    return Boolean(found.rowCount);
  });
  if (exists) return template;

  const building = `tplbuild_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  await onServer(serverUrl, (client) => client.query(`create database ${building}`));
  try {
    const database = openDb({ databaseUrl: databaseUrl(serverUrl, building), dataDir: root, poolSize: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    await onServer(serverUrl, async (client) => {
      try {
        await client.query(`alter database ${building} rename to ${template}`);
        await client.query(usedNow);
      } catch (error) {
        // Another run renamed its own build into place first: use that one.
        if (!(error instanceof pg.DatabaseError && error.code === '42P04')) throw error;
        await client.query(`drop database if exists ${building} with (force)`);
      }
    });
  } catch (error) {
    await onServer(serverUrl, (client) => client.query(`drop database if exists ${building} with (force)`));
    throw error;
  }
  return template;
}

async function dropUnusedTemplates(client: pg.Client, keep: string): Promise<void> {
  const { rows } = await client.query<{ datname: string; comment: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as comment from pg_database
      where datname like 'tpl\\_%' and datname <> $1`,
    [keep],
  );
  const cutoff = Date.now() - UNUSED_TEMPLATE_DAYS * 24 * 3600 * 1000;
  for (const { datname, comment } of rows) {
    const lastUsed = Date.parse(comment?.match(/last used (\S+)/)?.[1] ?? '');
    if (Number.isFinite(lastUsed) && lastUsed < cutoff) {
      await client.query(`drop database if exists ${datname} with (force)`);
    }
  }
}
