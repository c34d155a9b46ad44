/**
 * Fixed-window counters in the database, shared by every app instance (failed logins,
 * webhook deliveries per token).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './db/schema';

export interface RateCounters {
  /** Current count in the window, without changing it. */
  peek(key: string, windowMs: number): Promise<number>;
  /** Adds one and answers the new count in the window. */
  hit(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export function createRateCounters(db: Kysely<Database>, now: () => number = Date.now): RateCounters {
  const windowStart = (windowMs: number) => Math.floor(now() / windowMs) * windowMs;
  return {
    async peek(key, windowMs) {
      const row = await db
        .selectFrom('rate_counters')
        .select(['count', 'window_start'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row && row.window_start === windowStart(windowMs) ? row.count : 0;
    },
    async hit(key, windowMs) {
      const start = windowStart(windowMs);
      // One statement for both dialects: a row from an older window restarts at 1.
      const row = await db
        .insertInto('rate_counters')
        .values({ key, window_start: start, count: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`case when rate_counters.window_start = ${start} then rate_counters.count + 1 else 1 end`,
            window_start: start,
          }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return row.count;
    },
    async reset(key) {
      await db.deleteFrom('rate_counters').where('key', '=', key).execute();
    },
  };
}
