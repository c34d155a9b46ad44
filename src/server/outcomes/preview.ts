/**
 * What an unsaved outcome list would make of the client's recent calls (the Settings editor's
 * "preview before saving"): the latest calls of the last PREVIEW_DAYS days classified in memory,
 * in keyset batches so a large client's transcripts are never all held at once.
 *
 * Bounded, since a client chooses both the list and, through its agent, how long its
 * transcripts are: each call's texts are folded once for all its rules, the work stops at a budget
 * of rules × text size or a time limit (the answer is then a sample, `sampled`), reads are sized
 * by bytes rather than rows, and the work runs in slices that let the event loop turn. The route
 * also limits previews per client per minute (PREVIEWS_PER_MINUTE).
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import {
  OTHER_OUTCOME,
  type Outcome,
  type OutcomePreview,
  PREVIEW_DAYS,
  PREVIEW_MAX_CALLS,
} from '../../contract/outcomes';
import type { AppDeps } from '../context';
import type { Database } from '../db/schema';
import { tooManyRequests } from '../http/errors';
import { createWorkSlices, nextBatchSize } from '../http/work-slices';
import { factsOf } from './call-facts';
import { classifySteps } from './classify';

const MAX_BATCH = 2_000;
const FIRST_BATCH = 4;
/** Text read per batch, whatever the calls' sizes. */
const BATCH_BYTES = 4_000_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Previews one client may ask for per minute (the editor's button; each may run for seconds). */
export const PREVIEWS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

/** Counts a preview of the client's calls (by the client or an admin); over the limit, 429. */
export async function limitPreviews(
  deps: Pick<AppDeps, 'rateCounters' | 'now'>,
  reply: FastifyReply,
  clientId: string,
): Promise<void> {
  const count = await deps.rateCounters.hit(`outcome-preview:${clientId}`, MINUTE_MS);
  if (count <= PREVIEWS_PER_MINUTE) return;
  const seconds = Math.max(1, Math.ceil((MINUTE_MS - (deps.now() % MINUTE_MS)) / 1000));
  reply.header('retry-after', String(seconds));
  throw tooManyRequests(
    `You can ask for at most ${PREVIEWS_PER_MINUTE} outcome previews per minute. Try again in ${seconds} seconds.`,
  );
}

export interface PreviewBounds {
  /** Characters the rules may read in all, summed over every rule checked (rules × text size). */
  work: number;
  /** Wall-clock milliseconds after which the calls classified so far are the answer. */
  timeMs: number;
}

/**
 * 20,000 calls of 5 KB under 200 rules each is 2·10^10; a list of 200 rules over 900 KB
 * transcripts stops after about 110 calls (a few hundred milliseconds of work).
 */
export const PREVIEW_BOUNDS: PreviewBounds = { work: 20_000_000_000, timeMs: 5_000 };

const textBytes = (row: {
  summary: string | null;
  transcript: string | null;
  variables_json: string | null;
}) => (row.summary?.length ?? 0) + (row.transcript?.length ?? 0) + (row.variables_json?.length ?? 0);

export async function previewOutcomes(
  db: Kysely<Database>,
  clientId: string,
  outcomes: readonly Outcome[],
  now: number,
  bounds: PreviewBounds = PREVIEW_BOUNDS,
): Promise<OutcomePreview> {
  const counts = new Map<string, number>([...outcomes.map((o) => [o.name, 0] as const), [OTHER_OUTCOME, 0]]);
  const slices = createWorkSlices();
  let work = 0;
  let stopped = false;
  let scanned = 0;
  let after: { createdAt: number; id: string } | null = null;
  let more = true;
  let limit = FIRST_BATCH;
  while (more && !stopped && scanned < PREVIEW_MAX_CALLS) {
    let q = db
      .selectFrom('calls')
      .select([
        'id',
        'created_at',
        'status',
        'duration_seconds',
        'answered_by',
        'disposition_tag',
        'summary',
        'transcript',
        'variables_json',
        'quality_json',
      ])
      .where('client_id', '=', clientId)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '>', now - PREVIEW_DAYS * DAY_MS)
      .where('created_at', '<=', now);
    if (after) {
      const { createdAt, id } = after;
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '<', createdAt),
          eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
        ]),
      );
    }
    limit = Math.min(limit, PREVIEW_MAX_CALLS - scanned);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    more = rows.length === limit;
    let bytes = 0;
    for (const row of rows) {
      await slices.pause();
      bytes += textBytes(row);
      const steps = classifySteps(factsOf(row), outcomes);
      let step = steps.next();
      while (!step.done) {
        work += step.value;
        if (work > bounds.work || slices.elapsed() > bounds.timeMs) break;
        await slices.pause();
        step = steps.next();
      }
      // A call whose rules were not all read is not counted: the answer is the calls before it.
      if (!step.done) {
        stopped = true;
        break;
      }
      counts.set(step.value, (counts.get(step.value) ?? 0) + 1);
      scanned += 1;
      after = { createdAt: Number(row.created_at), id: row.id };
    }
    limit = nextBatchSize(rows.length, bytes, BATCH_BYTES, MAX_BATCH);
  }
  // Sampled when the bounds stopped the work, or calls were left over once the cap was reached.
  const last = after;
  const sampled =
    stopped ||
    (more &&
      last !== null &&
      (await db
        .selectFrom('calls')
        .select('id')
        .where('client_id', '=', clientId)
        .where('is_proxy', '=', 0)
        .where('verified', '=', 1)
        .where('created_at', '>', now - PREVIEW_DAYS * DAY_MS)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', last.createdAt),
            eb.and([eb('created_at', '=', last.createdAt), eb('id', '<', last.id)]),
          ]),
        )
        .limit(1)
        .executeTakeFirst()) !== undefined);
  return {
    days: PREVIEW_DAYS,
    scanned,
    sampled,
    counts: [...counts].map(([name, count]) => ({ name, count })),
  };
}
