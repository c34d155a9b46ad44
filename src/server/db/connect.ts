/**
 * Opens the database: PostgreSQL when DATABASE_URL is set, SQLite (WAL) under DATA_DIR otherwise.
 * Both hand back the same Kysely<Database>; `dialect` is exposed for the few queries that differ.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the connection string, for a connection of its own (LISTEN, live/live-hub.ts). */
  url?: string;
  /** PostgreSQL: the pool's connections and waiting queries now (the metrics); SQLite has one connection. */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

// bigint (int8) and numeric arrive as strings from pg by default; our values fit in a double
// (epoch ms, micro-dollars up to 9e15), so read them as numbers on both dialects.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface OpenDbOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** SQLite only: a file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  poolSize?: number;
}

/** SQLite's memory map: as much of the file as SQLite allows (it caps the size at 2 GB). */
const MMAP_BYTES = 2 ** 31;

export function openDb(options: OpenDbOptions): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withCallbackQueries(pool) }) });
    return {
      db,
      dialect: 'postgres',
      url: options.databaseUrl,
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile ?? 'app.sqlite';
  let location = file;
  if (file !== ':memory:') {
    // Owner-only: the file holds sessions, password hashes and encrypted keys.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    location = path.join(options.dataDir, file);
    if (!existsSync(location)) writeFileSync(location, '', { mode: 0o600 });
  }
  const sqlite = new SQLite(location);
  sqlite.pragma('journal_mode = WAL');
  // "Acknowledged means stored", through a power cut too: with WAL, NORMAL may lose the last
  // commits on power loss (never on a crash); FULL syncs each commit. The group commit of webhook
  // deliveries pays one sync per batch, so FULL costs little (README, bench/RESULTS.md).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // An erased or expired caller's words must not linger in the file's free space:
  // FAST zeroes deleted content on the pages a write touches anyway, so it costs no extra I/O.
  sqlite.pragma('secure_delete = FAST');
  // Reads through a memory map instead of a read() into SQLite's small page cache per page: a
  // word search that visits 20,000 scattered calls takes half the time (bench/RESULTS.md). The
  // mapped pages are the kernel's file cache, shared and reclaimable, not memory the process
  // owns. Writes still go through the WAL.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  if (file !== ':memory:') restrictToOwner(location);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Kysely runs each query through pg's promise form of `client.query`, and results read that way
 * outlived their request: a 3,000-row result survived young-generation collections and was
 * promoted, so scavenges took 10 to 20 ms and the old generation filled every few requests (much
 * of the PostgreSQL p95s). pg's callback form, the one its own Pool.query uses, leaves
 * nothing behind (scavenges of 0.3 ms), so queries go through it; cursors pass through unchanged.
 */
function withCallbackQueries(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      // While checked out a client has no listener of the pool's: a connection dropped between
      // two queries (PostgreSQL stopped or restarted) would be an uncaught error and end the
      // process. Its query in flight fails with it; released, the pool discards it.
      const dropped = () => {};
      client.on('error', dropped);
      return {
        // biome-ignore lint/suspicious/noExplicitAny: one function for both of Kysely's overloads
        query: ((text: any, values?: readonly unknown[]) =>
          typeof text === 'string'
            ? new Promise((resolve, reject) =>
                // pg's query takes a mutable array; it only reads the values.
                client.query(text, values as unknown[], (error, result) =>
                  error ? reject(error) : resolve(result),
                ),
              )
            : client.query(text)) as never,
        release: () => {
          client.removeListener('error', dropped);
          client.release();
        },
      };
    },
    end: () => pool.end(),
  };
}

/** The database and its WAL and shared-memory files, whatever the umask made of them. */
function restrictToOwner(location: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(location + suffix)) chmodSync(location + suffix, 0o600);
  }
}

/**
 * Kysely prepares every query afresh, and on a busy webhook endpoint preparing costs about as
 * much as running. Statements are reused by their SQL text instead (least recently used ones are
 * dropped). Safe because Kysely runs one query at a time on the connection; SQLite re-prepares a
 * cached statement itself if the schema changes under it. 2,000: a group commit's statements
 * differ by their number of rows and IN-list values (1 to 200 each), and at 500 the webhook load
 * missed often enough that preparing cost ~4 % of its CPU.
 */
function withStatementCache(sqlite: SQLite.Database, size = 2_000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        // The cache is full, so not empty: its first key is a string.
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
