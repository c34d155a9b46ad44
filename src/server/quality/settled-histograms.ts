/**
 * A period's quality histograms without re-reading its settled days. Reading and merging a
 * month's daily rollups (two periods × 30 days × 14 metrics, ~17,000 value pairs) was most of a
 * summary's time, yet calls almost only ever land on the last day or two. So a period splits in
 * two: its settled days (more than two UTC days old) merged once and kept in memory under the
 * client's rollup version, and its recent days read each time.
 *
 * Correctness rests on one rule, kept in quality-rollups.ts: every change to a client's rollups of
 * a day older than one UTC day bumps `quality_rollup_versions.version` in the same transaction
 * (backfill, a sync of old calls, deletion, a new time zone). The one-day gap between what a
 * writer bumps for and what a reader keeps covers instances whose clocks differ by up to a day.
 * The version is read before the rows: a merge that sees a newer write than its version is merely
 * recomputed once more by the next reader.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { shiftDate } from '../time/time-zones';
import type { Histogram } from './histogram';
import { bumpingBefore, readHistograms } from './quality-rollups';

/** The last day a reader keeps merged: one day before what writers bump for (clock skew). */
function lastSettledDay(nowMs: number): string {
  return shiftDate(bumpingBefore(nowMs), -2);
}

type Metrics = Map<string, Histogram>;

/** The earlier of two YYYY-MM-DD days (they compare as strings). */
const earlierDay = (a: string, b: string) => (a.localeCompare(b) <= 0 ? a : b);

/**
 * Merged settled periods, least recently used first: one per app, in its dependencies
 * (`deps.settledHistograms`, made in bootstrap.ts).
 */
export type SettledHistograms = Map<string, Metrics>;
const MAX_KEPT = 2_000;

export const createSettledHistograms = (): SettledHistograms => new Map();

async function versionOf(db: Kysely<Database>, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('quality_rollup_versions')
    .select('version')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

function addInto(into: Metrics, from: Metrics | undefined): void {
  for (const [metric, histogram] of from ?? []) {
    const sum = into.get(metric) ?? new Map<number, number>();
    for (const [value, calls] of histogram) sum.set(value, (sum.get(value) ?? 0) + calls);
    into.set(metric, sum);
  }
}

/**
 * Each metric's histogram over local days from–to for one client, as readHistograms answers it.
 * The settling clock is the machine's (`Date.now()`), as the writers' is, whatever `now` a request
 * reads its periods with.
 */
export async function periodHistograms(
  deps: { db: Kysely<Database>; settledHistograms: SettledHistograms },
  clientId: string,
  periods: { from: string; to: string }[],
): Promise<Metrics[]> {
  const settledTo = lastSettledDay(Date.now());
  const { db, settledHistograms: cache } = deps;
  const version = await versionOf(db, clientId);
  return Promise.all(
    periods.map(async ({ from, to }) => {
      const merged: Metrics = new Map();
      const settledEnd = earlierDay(to, settledTo);
      if (from <= settledEnd) {
        const key = `${clientId}\u0000${from}\u0000${settledEnd}\u0000${version}`;
        let settled = cache.get(key);
        if (settled) cache.delete(key);
        else settled = (await readHistograms(db, [clientId], from, settledEnd)).get(clientId) ?? new Map();
        cache.set(key, settled);
        // The cache is not empty here (size > MAX_KEPT), so the first key exists
        if (cache.size > MAX_KEPT) cache.delete(cache.keys().next().value as string);
        addInto(merged, settled);
      }
      const recentFrom = from > settledEnd ? from : shiftDate(settledEnd, 1);
      if (recentFrom <= to)
        addInto(merged, (await readHistograms(db, [clientId], recentFrom, to)).get(clientId));
      return merged;
    }),
  );
}
