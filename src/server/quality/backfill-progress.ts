/**
 * How far measuring a client's earlier calls has come (the walk of calls/write/quality-backfill.ts),
 * shown with the quality thresholds. Read from the walk's own row, so quality/ needs nothing of
 * the calls store.
 */
import type { Kysely } from 'kysely';
import { walkState } from '../background/client-walk';
import type { Database } from '../db/schema';

/** How far measuring a client's earlier calls got; null when there is nothing (more) to measure. */
export async function backfillProgress(
  db: Kysely<Database>,
  clientId: string,
  now: number = Date.now(),
): Promise<{ done: number; total: number } | null> {
  const walk = await walkState(db, clientId, 'quality-backfill', now);
  if (!walk || walk.finishedAt !== null) return null;
  return { done: Math.min(walk.done, walk.total), total: walk.total };
}
