/**
 * The one resumable walk over a client's calls, in id order and in batches, for the work that
 * goes over a client's whole history in the background: re-classification (outcomes/),
 * measuring earlier calls' quality (calls/write/quality-backfill.ts) and re-redaction (privacy/).
 *
 * Each walk of a client has one row of `client_walks` (kind, client): asked for (`requestWalk`,
 * pending until it finishes), how far it got (`after_id`, `done` of `total`, which the API shows)
 * and when it finished. A run holds the lease `{kind}:{client}` (lease.ts), renewed after every
 * batch, so two instances never walk the same client at once; a run that dies leaves its cursor,
 * so a resumable walk goes on from there. What a batch does is the caller's: this module reads no
 * call and writes none.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { claimLease, leaseHolder, releaseLease, renewLease } from './lease';

export type WalkKind = 'reclassify' | 'quality-backfill' | 're-redact';

/** A run holds its lease this long past its last batch; a dead run's walk waits no longer. */
export const WALK_LEASE_MS = 60_000;

export interface WalkState {
  /** When the walk was last asked for; null when it never was (a walk started by a read). */
  requestedAt: number | null;
  done: number;
  total: number;
  /** Null while the walk is pending: asked for, or cut short, and not yet finished. */
  finishedAt: number | null;
  /** Whether a run holds the lease now. */
  running: boolean;
}

const leaseName = (kind: WalkKind, clientId: string) => `${kind}:${clientId}`;

/**
 * Asks for a walk of the client's calls from the start, `total` of them as far as the asker
 * knows (the API shows 0 of it until a run counts them). A run going meanwhile finishes its pass
 * but leaves the walk pending, so another pass follows.
 */
export async function requestWalk(
  db: Kysely<Database>,
  clientId: string,
  kind: WalkKind,
  now: number,
  total = 0,
): Promise<void> {
  const asked = { requested_at: now, after_id: null, done: 0, total, finished_at: null };
  await db
    .insertInto('client_walks')
    .values({ client_id: clientId, kind, ...asked })
    .onConflict((oc) => oc.columns(['client_id', 'kind']).doUpdateSet(asked))
    .execute();
}

/** Makes the walk pending without touching its progress (a run finds the work by itself). */
export async function markWalkPending(db: Kysely<Database>, clientId: string, kind: WalkKind): Promise<void> {
  await db
    .insertInto('client_walks')
    .values({ client_id: clientId, kind })
    .onConflict((oc) => oc.columns(['client_id', 'kind']).doUpdateSet({ finished_at: null }))
    .execute();
}

/** Where the client's walk stands; null when none was ever asked for. */
export async function walkState(
  db: Kysely<Database>,
  clientId: string,
  kind: WalkKind,
  now: number,
): Promise<WalkState | null> {
  const row = await db
    .selectFrom('client_walks')
    .select(['requested_at', 'done', 'total', 'finished_at'])
    .where('client_id', '=', clientId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row) return null;
  return {
    requestedAt: row.requested_at === null ? null : Number(row.requested_at),
    done: Number(row.done),
    total: Number(row.total),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    running: (await leaseHolder(db, leaseName(kind, clientId), now)) !== null,
  };
}

/** The clients whose walk of this kind is pending. */
export async function pendingWalks(db: Kysely<Database>, kind: WalkKind): Promise<string[]> {
  const rows = await db
    .selectFrom('client_walks')
    .select('client_id')
    .where('kind', '=', kind)
    .where('finished_at', 'is', null)
    .orderBy('client_id')
    .execute();
  return rows.map((r) => r.client_id);
}

export interface WalkSteps<Row extends { id: string }> {
  /**
   * Whether a run goes on after the last batch a previous run finished; otherwise each run starts
   * from the first call and counts its total anew (`count`).
   */
  resume: boolean;
  /** The calls a run starting over will walk (the progress's total). */
  count?: () => Promise<number>;
  /** Batch size of the first read. */
  firstBatch: number;
  /** The client's next calls after id `after` (id order), at most `limit`. */
  read: (after: string, limit: number) => Promise<Row[]>;
  /** Does a batch's work; answers the next batch's size, or nothing to keep it. */
  handle: (rows: Row[]) => Promise<number | undefined>;
  /** After the last batch, before the walk is marked finished. */
  finish?: () => Promise<void>;
}

/**
 * Runs the client's pending walk to its end; false at once when it is not pending or another
 * run holds its lease, and false when the lease was lost midway (the run that took it goes on).
 */
export async function runClientWalk<Row extends { id: string }>(
  db: Kysely<Database>,
  clientId: string,
  kind: WalkKind,
  steps: WalkSteps<Row>,
  now: () => number,
): Promise<boolean> {
  const lease = leaseName(kind, clientId);
  const owner = randomUUID();
  if (!(await claimLease(db, lease, owner, now(), WALK_LEASE_MS))) return false;
  try {
    const row = await db
      .selectFrom('client_walks')
      .select(['requested_at', 'after_id', 'done', 'finished_at'])
      .where('client_id', '=', clientId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (!row || row.finished_at !== null) return false;
    const progress = db
      .updateTable('client_walks')
      .where('client_id', '=', clientId)
      .where('kind', '=', kind);
    let after = '';
    let done = 0;
    if (steps.resume) {
      after = row.after_id ?? '';
      done = Number(row.done);
    } else {
      const total = steps.count ? await steps.count() : 0;
      await progress.set({ after_id: null, done: 0, total }).execute();
    }
    let limit = steps.firstBatch;
    for (;;) {
      const rows = await steps.read(after, limit);
      if (rows.length === 0) break;
      limit = (await steps.handle(rows)) ?? limit;
      after = rows[rows.length - 1].id;
      done += rows.length;
      await progress.set({ after_id: after, done }).execute();
      if (!(await renewLease(db, lease, owner, now(), WALK_LEASE_MS))) return false;
    }
    await steps.finish?.();
    // Calls deleted during the run were counted in the total but never read: the run is whole.
    // Finished unless asked for again meanwhile (then another pass follows).
    await progress
      .set({ total: done, finished_at: now() })
      .where((eb) =>
        row.requested_at === null
          ? eb('requested_at', 'is', null)
          : eb('requested_at', '=', Number(row.requested_at)),
      )
      .execute();
    return true;
  } finally {
    await releaseLease(db, lease, owner);
  }
}
