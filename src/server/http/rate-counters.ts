/**
 * Sliding-window counters in the database, shared by every app instance (login attempts, creation
 * caps). A window's estimate weighs the previous window's count by how much of it still overlaps
 * (the usual sliding-window approximation), so a burst cannot double at a window boundary.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

export interface CounterState {
  /** Sliding estimate of the hits in the last windowMs. */
  count: number;
  /** Epoch ms of the last hit, 0 when none. */
  lastAt: number;
}

export interface RateCounters {
  /** The current estimate, without changing it. */
  peek(key: string, windowMs: number): Promise<number>;
  /** The estimate and the last hit's time, without changing them. */
  state(key: string, windowMs: number): Promise<CounterState>;
  /** Adds `by` (one by default), atomically across instances, and answers the new estimate. */
  hit(key: string, windowMs: number, by?: number): Promise<number>;
  /** `hit` for many keys in one statement (at most 500), answering each key's new estimate. */
  hitMany(counts: [key: string, by: number][], windowMs: number): Promise<Map<string, number>>;
  /** Takes one back (an attempt that turned out fine), never below zero. */
  release(key: string, windowMs: number): Promise<void>;
  reset(key: string): Promise<void>;
}

interface Row {
  window_start: number | string;
  count: number | string;
  previous_count: number | string;
  last_at: number | string;
}

export function createRateCounters(db: Kysely<Database>, now: () => number = Date.now): RateCounters {
  const windowStart = (windowMs: number) => Math.floor(now() / windowMs) * windowMs;

  function estimate(row: Row | undefined, windowMs: number): number {
    if (!row) return 0;
    const start = windowStart(windowMs);
    const rowStart = Number(row.window_start);
    const count = Number(row.count);
    const previous =
      rowStart === start ? Number(row.previous_count) : rowStart === start - windowMs ? count : 0;
    const current = rowStart === start ? count : 0;
    const overlap = 1 - (now() - start) / windowMs;
    return current + previous * overlap;
  }

  const read = (key: string) =>
    db
      .selectFrom('rate_counters')
      .select(['window_start', 'count', 'previous_count', 'last_at'])
      .where('key', '=', key)
      .executeTakeFirst();

  /**
   * One statement for both dialects: each row moves to the current window, keeping the count of the
   * window just before it (or 0 after a gap), and adds its own count (taken from excluded).
   */
  async function hitMany(
    counts: [key: string, by: number][],
    windowMs: number,
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (counts.length === 0) return out;
    const start = windowStart(windowMs);
    const at = now();
    const rows = await db
      .insertInto('rate_counters')
      .values(
        counts.map(([key, by]) => ({
          key,
          window_start: start,
          count: by,
          previous_count: 0,
          last_at: at,
        })),
      )
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          previous_count: sql`case when rate_counters.window_start = ${start} then rate_counters.previous_count when rate_counters.window_start = ${start - windowMs} then rate_counters.count else 0 end`,
          count: sql`case when rate_counters.window_start = ${start} then rate_counters.count + excluded.count else excluded.count end`,
          window_start: start,
          last_at: at,
        }),
      )
      .returning(['key', 'window_start', 'count', 'previous_count', 'last_at'])
      .execute();
    for (const row of rows) out.set(row.key, estimate(row, windowMs));
    return out;
  }

  return {
    async peek(key, windowMs) {
      return estimate(await read(key), windowMs);
    },
    async state(key, windowMs) {
      const row = await read(key);
      return { count: estimate(row, windowMs), lastAt: Number(row?.last_at ?? 0) };
    },
    async hit(key, windowMs, by = 1) {
      return (await hitMany([[key, by]], windowMs)).get(key) ?? 0;
    },
    hitMany,
    async release(key, windowMs) {
      await db
        .updateTable('rate_counters')
        .set({ count: sql`case when count > 0 then count - 1 else 0 end` })
        .where('key', '=', key)
        .where('window_start', '=', windowStart(windowMs))
        .execute();
    },
    async reset(key) {
      await db.deleteFrom('rate_counters').where('key', '=', key).execute();
    },
  };
}
