/**
 * The lease on two handles of one database, as two instances see it: on a SQLite file always,
 * and on PostgreSQL too when TEST_DB=postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../../tests/helpers/scratch-database';
import { TEST_DATABASE_URL, TEST_DB } from '../../../tests/helpers/test-db-settings';
import { type Db, openDb } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { claimLease, leaseHolder, releaseLease, releaseLeasesNamed, renewLease } from './lease';

const TTL = 30_000;

interface Instances {
  a: Db;
  b: Db;
  done(): Promise<void>;
}

async function onSqliteFile(): Promise<Instances> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lease-'));
  const a = openDb({ databaseUrl: null, dataDir: dir });
  await migrateToLatest(a.db);
  const b = openDb({ databaseUrl: null, dataDir: dir });
  return {
    a,
    b,
    async done() {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onPostgres(): Promise<Instances> {
  const scratch = await createScratchDatabase(TEST_DATABASE_URL);
  const a = openDb({ databaseUrl: scratch.url, dataDir: '.' });
  await migrateToLatest(a.db);
  const b = openDb({ databaseUrl: scratch.url, dataDir: '.' });
  return {
    a,
    b,
    async done() {
      await a.close();
      await b.close();
      await scratch.drop();
    },
  };
}

const databases: [string, () => Promise<Instances>][] = [['sqlite', onSqliteFile]];
if (TEST_DB === 'postgres') databases.push(['postgres', onPostgres]);

describe.each(databases)('the lease on %s', (_name, open) => {
  let instances: Instances;
  let n = 0;
  /** A lease name of its own for each test. */
  const fresh = () => `test:${++n}`;
  beforeAll(async () => {
    instances = await open();
  });
  afterAll(async () => {
    await instances?.done();
  });

  it('is claimed by one of two holders; the other is refused until it is given back', async () => {
    const { a, b } = instances;
    const name = fresh();
    expect(await claimLease(a.db, name, 'one', 1_000, TTL)).toBe(true);
    expect(await claimLease(b.db, name, 'two', 1_001, TTL)).toBe(false);
    expect(await claimLease(a.db, name, 'one', 1_002, TTL)).toBe(false);
    expect(await leaseHolder(b.db, name, 1_003)).toEqual({ owner: 'one', until: 1_000 + TTL });
    await releaseLease(a.db, name, 'one');
    expect(await leaseHolder(b.db, name, 1_004)).toBeNull();
    expect(await claimLease(b.db, name, 'two', 1_005, TTL)).toBe(true);
  });

  it('two holders asking at once: exactly one wins', async () => {
    const { a, b } = instances;
    const name = fresh();
    const won = await Promise.all([
      claimLease(a.db, name, 'one', 5_000, TTL),
      claimLease(b.db, name, 'two', 5_000, TTL),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('expires: once its time has passed another may claim it, and the first can no longer renew', async () => {
    const { a, b } = instances;
    const name = fresh();
    expect(await claimLease(a.db, name, 'one', 10_000, TTL)).toBe(true);
    expect(await claimLease(b.db, name, 'two', 10_000 + TTL - 1, TTL)).toBe(false);
    expect(await leaseHolder(b.db, name, 10_000 + TTL)).toBeNull();
    expect(await claimLease(b.db, name, 'two', 10_000 + TTL, TTL)).toBe(true);
    expect(await renewLease(a.db, name, 'one', 10_000 + TTL + 1, TTL)).toBe(false);
    expect((await leaseHolder(a.db, name, 10_000 + TTL + 1))?.owner).toBe('two');
  });

  it('is kept by renewing it; a release by another owner leaves it alone', async () => {
    const { a, b } = instances;
    const name = fresh();
    expect(await claimLease(a.db, name, 'one', 20_000, TTL)).toBe(true);
    expect(await renewLease(a.db, name, 'one', 20_000 + TTL - 1, TTL)).toBe(true);
    expect(await claimLease(b.db, name, 'two', 20_000 + TTL + 1, TTL)).toBe(false);
    expect(await renewLease(b.db, name, 'two', 20_000 + TTL + 2, TTL)).toBe(false);
    await releaseLease(b.db, name, 'two');
    expect((await leaseHolder(b.db, name, 20_000 + TTL + 3))?.owner).toBe('one');
  });

  it('a lease of no time is free at once (a claim that only records)', async () => {
    const { a, b } = instances;
    const name = fresh();
    expect(await claimLease(a.db, name, 'one', 30_000, 0)).toBe(true);
    expect(await leaseHolder(b.db, name, 30_000)).toBeNull();
    expect(await claimLease(b.db, name, 'two', 30_000, TTL)).toBe(true);
  });

  it('every lease of a family is dropped at once, others kept', async () => {
    const { a } = instances;
    expect(await claimLease(a.db, 'family:1', 'one', 40_000, TTL)).toBe(true);
    expect(await claimLease(a.db, 'family:2', 'two', 40_000, TTL)).toBe(true);
    const other = fresh();
    expect(await claimLease(a.db, other, 'one', 40_000, TTL)).toBe(true);
    expect(await releaseLeasesNamed(a.db, 'family:')).toBe(2);
    expect(await leaseHolder(a.db, 'family:1', 40_001)).toBeNull();
    expect((await leaseHolder(a.db, other, 40_001))?.owner).toBe('one');
  });
});
