/**
 * A PostgreSQL database of its own for one test file (or one benchmark run), created next to the
 * database a server URL names and dropped afterwards. A database rather than a schema: Kysely's
 * migrator introspects every table of its database, so a schema dropped by another test file in
 * the middle of that query made migrations fail at random.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * `name` defaults to a fresh random one; a fixed name is dropped first if a crashed run left it,
 * unless `keep` says the database is wanted as it is (the bench's kept fill). `template` makes it
 * a copy of that database (the API tests' migrated template, db-template.ts) instead of empty.
 */
export async function createScratchDatabase(
  serverUrl: string,
  name?: string,
  { keep = false, template }: { keep?: boolean; template?: string } = {},
): Promise<ScratchDatabase> {
  const database = name ?? `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  if (name && !keep) await onServer(serverUrl, `drop database if exists ${database} with (force)`);
  // WAL_LOG (the default since PostgreSQL 15) copies a small template without FILE_COPY's checkpoints.
  if (!keep)
    await onServer(serverUrl, `create database ${database}${template ? ` template ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `drop database if exists ${database} with (force)`),
  };
}
