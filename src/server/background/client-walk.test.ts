/**
 * The walk with stand-in calls (the caller reads and handles them; the walk keeps the cursor,
 * the progress and the lease). The client's row is not needed: foreign keys are off here.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { pendingWalks, requestWalk, runClientWalk, type WalkSteps, walkState } from './client-walk';
import { claimLease } from './lease';

const CALLS = Array.from({ length: 10 }, (_, i) => ({ id: `call-${String(i).padStart(2, '0')}` }));
const clock = () => 1_000_000;

function steps(
  seen: string[],
  { resume = false, failAt }: { resume?: boolean; failAt?: string } = {},
): WalkSteps<{ id: string }> {
  return {
    resume,
    firstBatch: 3,
    count: async () => CALLS.length,
    read: async (after, limit) => CALLS.filter((c) => c.id > after).slice(0, limit),
    async handle(rows) {
      for (const row of rows) if (row.id === failAt) throw new Error('cut short');
      seen.push(...rows.map((r) => r.id));
      return 4;
    },
  };
}

describe('the walk over a client’s calls', () => {
  let database: Db | undefined;
  afterEach(async () => {
    await database?.close();
  });
  async function db() {
    database = openDb({ databaseUrl: null, dataDir: '.', sqliteFile: ':memory:' });
    await migrateToLatest(database.db);
    await sql`pragma foreign_keys = off`.execute(database.db);
    return database.db;
  }

  it('walks every call once, in batches, and finishes with done equal to total', async () => {
    const d = await db();
    await requestWalk(d, 'c1', 're-redact', 500, 0);
    expect(await pendingWalks(d, 're-redact')).toEqual(['c1']);
    const seen: string[] = [];
    expect(await runClientWalk(d, 'c1', 're-redact', steps(seen), clock)).toBe(true);
    expect(seen).toEqual(CALLS.map((c) => c.id));
    expect(await walkState(d, 'c1', 're-redact', clock())).toMatchObject({
      requestedAt: 500,
      done: 10,
      total: 10,
      finishedAt: clock(),
      running: false,
    });
    expect(await pendingWalks(d, 're-redact')).toEqual([]);
    // Finished: nothing to do until asked again.
    expect(await runClientWalk(d, 'c1', 're-redact', steps([]), clock)).toBe(false);
  });

  it('a resumable walk cut short goes on after the last batch it finished', async () => {
    const d = await db();
    await requestWalk(d, 'c1', 'quality-backfill', 500, CALLS.length);
    const first: string[] = [];
    await expect(
      runClientWalk(d, 'c1', 'quality-backfill', steps(first, { resume: true, failAt: 'call-05' }), clock),
    ).rejects.toThrow('cut short');
    expect(first).toEqual(['call-00', 'call-01', 'call-02']);
    expect(await walkState(d, 'c1', 'quality-backfill', clock())).toMatchObject({
      done: 3,
      total: 10,
      finishedAt: null,
      running: false,
    });
    const second: string[] = [];
    expect(await runClientWalk(d, 'c1', 'quality-backfill', steps(second, { resume: true }), clock)).toBe(
      true,
    );
    expect(second).toEqual(CALLS.slice(3).map((c) => c.id));
  });

  it('does not run while another holds the lease', async () => {
    const d = await db();
    await requestWalk(d, 'c1', 'reclassify', 500, 0);
    expect(await claimLease(d, 'reclassify:c1', 'another instance', clock(), 60_000)).toBe(true);
    const seen: string[] = [];
    expect(await runClientWalk(d, 'c1', 'reclassify', steps(seen), clock)).toBe(false);
    expect(seen).toEqual([]);
    expect((await walkState(d, 'c1', 'reclassify', clock()))?.running).toBe(true);
  });

  it('asked again during a run, stays pending after it for one more pass', async () => {
    const d = await db();
    await requestWalk(d, 'c1', 're-redact', 500, 0);
    const seen: string[] = [];
    const walk = steps(seen);
    const handle = walk.handle;
    let asked = false;
    walk.handle = async (rows) => {
      if (!asked) {
        asked = true;
        await requestWalk(d, 'c1', 're-redact', 600, 0);
      }
      return handle(rows);
    };
    expect(await runClientWalk(d, 'c1', 're-redact', walk, clock)).toBe(true);
    expect(await pendingWalks(d, 're-redact')).toEqual(['c1']);
    expect(await runClientWalk(d, 'c1', 're-redact', steps([]), clock)).toBe(true);
    expect(await pendingWalks(d, 're-redact')).toEqual([]);
  });
});
