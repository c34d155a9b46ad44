import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { createRateCounters } from './rate-counters';

const WINDOW = 60_000;

describe('rate counters', () => {
  let database: Db | undefined;
  afterEach(async () => {
    await database?.close();
  });

  async function counters(clock: { now: number }) {
    database = openDb({ databaseUrl: null, dataDir: '.', sqliteFile: ':memory:' });
    await migrateToLatest(database.db);
    return createRateCounters(database.db, () => clock.now);
  }

  it('slide: a burst at the end of one window still weighs at the start of the next', async () => {
    const clock = { now: 10 * WINDOW - 1_000 };
    const c = await counters(clock);
    for (let i = 0; i < 10; i++) await c.hit('k', WINDOW);
    clock.now = 10 * WINDOW + 1_000; // 1 s into the next window: the last one still overlaps 98 %
    const after = await c.hit('k', WINDOW);
    expect(after).toBeGreaterThan(10);
    expect(after).toBeLessThanOrEqual(11);
    clock.now = 12 * WINDOW; // two windows later: forgotten
    expect(await c.peek('k', WINDOW)).toBe(0);
  });

  it('hitMany counts each key as hit would, windows sliding alike', async () => {
    const clock = { now: 10 * WINDOW - 1_000 };
    const c = await counters(clock);
    await c.hit('a', WINDOW, 4);
    expect(
      await c.hitMany(
        [
          ['a', 6],
          ['b', 3],
        ],
        WINDOW,
      ),
    ).toEqual(
      new Map([
        ['a', 10],
        ['b', 3],
      ]),
    );
    clock.now = 10 * WINDOW + 1_000;
    const next = await c.hitMany(
      [
        ['a', 1],
        ['c', 2],
      ],
      WINDOW,
    );
    expect(next.get('a')).toBeCloseTo(1 + 10 * (1 - 1_000 / WINDOW));
    expect(next.get('c')).toBe(2);
    expect(await c.peek('b', WINDOW)).toBeCloseTo(3 * (1 - 1_000 / WINDOW));
    expect(await c.hitMany([], WINDOW)).toEqual(new Map());
  });

  it('release takes one back, never below zero; state tells the last hit', async () => {
    const clock = { now: 5 * WINDOW };
    const c = await counters(clock);
    await c.hit('k', WINDOW);
    await c.release('k', WINDOW);
    await c.release('k', WINDOW);
    expect(await c.peek('k', WINDOW)).toBe(0);
    expect((await c.state('k', WINDOW)).lastAt).toBe(5 * WINDOW);
  });
});
