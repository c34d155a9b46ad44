/**
 * Re-classifying a client's calls after its outcomes change (or, the first time, the calls stored
 * before outcomes existed): the client's walk over its calls (background/client-walk.ts: batches,
 * under a lease so two instances never do it at once, progress shown by the outcomes routes);
 * then the outcome sums are rebuilt from the calls. The calls store writes the new columns.
 *
 * A client's list may hold 200 `contains` rules and its transcripts run to 900 KB, so the run is
 * bounded like the preview: reads sized by bytes, each call's texts folded once,
 * the classification in slices that let the event loop turn, and each batch written in one short
 * transaction after it is classified (never holding the connection across a pause).
 */
import type { Kysely } from 'kysely';
import type { Reclassification } from '../../contract/outcomes';
import { runClientWalk, type WalkSteps, walkState } from '../background/client-walk';
import { classifiedUnderOther, writeReclassified } from '../calls/write/outcome-writes';
import { rebuildOutcomeRollups } from '../calls/write/rollups';
import { timeZoneOf } from '../clients/clients-repository';
import type { CallRow, Database } from '../db/schema';
import { createWorkSlices, nextBatchSize, runSliced } from '../http/work-slices';
import { type ClassifiedColumns, classifyRowSteps } from './classify-row';
import { type OutcomeSet, outcomeSetOf } from './outcomes-repository';

const MAX_BATCH = 1_000;
const FIRST_BATCH = 4;
/** Text read per batch, whatever the calls' sizes. */
const BATCH_BYTES = 4_000_000;

type StoredForClassification = Pick<
  CallRow,
  | 'id'
  | 'status'
  | 'duration_seconds'
  | 'answered_by'
  | 'disposition_tag'
  | 'summary'
  | 'transcript'
  | 'variables_json'
  | 'quality_json'
  | 'error_message'
>;

/** Consecutive runs of items of at most `bytes` in all (an item larger alone is a run of its own). */
function* byBytes<T extends { size: number }>(items: T[], bytes: number): Generator<T[]> {
  let run: T[] = [];
  let size = 0;
  for (const item of items) {
    if (run.length > 0 && size + item.size > bytes) {
      yield run;
      run = [];
      size = 0;
    }
    run.push(item);
    size += item.size;
  }
  if (run.length > 0) yield run;
}

/** Whether some of the client's calls are classified under an older list (or never). */
export async function needsReclassification(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const { version } = await outcomeSetOf(db, clientId);
  const row = await db
    .selectFrom('calls')
    .select('id')
    .where('client_id', '=', clientId)
    .where(classifiedUnderOther(version))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Runs to the end unless another instance holds the lease (then returns false at once). Safe to
 * call again at any time: it only touches calls classified under another version. Its one caller,
 * the classification guard, marks the walk pending first.
 */
export async function reclassifyClient(
  db: Kysely<Database>,
  clientId: string,
  now: () => number = Date.now,
): Promise<boolean> {
  let set: OutcomeSet | undefined;
  const slices = createWorkSlices();
  const outcomesOf = async () => {
    set ??= await outcomeSetOf(db, clientId);
    return set;
  };
  const steps: WalkSteps<StoredForClassification> = {
    resume: false,
    firstBatch: FIRST_BATCH,
    async count() {
      const { version } = await outcomesOf();
      const { total } = await db
        .selectFrom('calls')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('client_id', '=', clientId)
        .where(classifiedUnderOther(version))
        .executeTakeFirstOrThrow();
      return Number(total);
    },
    async read(after, limit) {
      const { version } = await outcomesOf();
      return db
        .selectFrom('calls')
        .select([
          'id',
          'status',
          'duration_seconds',
          'answered_by',
          'disposition_tag',
          'summary',
          'transcript',
          'variables_json',
          'quality_json',
          'error_message',
        ])
        .where('client_id', '=', clientId)
        .where('id', '>', after)
        .where(classifiedUnderOther(version))
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    async handle(rows) {
      const outcomes = await outcomesOf();
      const classified: { id: string; size: number; columns: ClassifiedColumns }[] = [];
      let bytes = 0;
      for (const row of rows) {
        const size =
          (row.summary?.length ?? 0) + (row.transcript?.length ?? 0) + (row.variables_json?.length ?? 0);
        bytes += size;
        await slices.pause();
        classified.push({
          id: row.id,
          size,
          columns: await runSliced(classifyRowSteps(row, outcomes), slices),
        });
      }
      // SQLite rewrites a row whole (its transcript too) on any update: a transaction writes
      // about BATCH_BYTES of rows, then the loop turns.
      for (const chunk of byBytes(classified, BATCH_BYTES)) {
        await slices.pause();
        await writeReclassified(db, clientId, outcomes.version, chunk);
      }
      return nextBatchSize(rows.length, bytes, BATCH_BYTES, MAX_BATCH);
    },
    async finish() {
      const timeZone = await timeZoneOf(db, clientId);
      await db.transaction().execute((trx) => rebuildOutcomeRollups(trx, clientId, timeZone));
    },
  };
  return runClientWalk(db, clientId, 'reclassify', steps, now);
}

/**
 * Running while a run holds the lease, and also between a save (which sets the progress to 0 of
 * all the calls) and the run taking the lease: a run that ends leaves done equal to its total.
 */
export async function reclassificationOf(
  db: Kysely<Database>,
  clientId: string,
  now: number,
): Promise<Reclassification> {
  const walk = await walkState(db, clientId, 'reclassify', now);
  if (!walk) return { state: 'idle', done: 0, total: 0 };
  const { done, total } = walk;
  // Asked for and not finished is running too: the run may not have claimed its lease yet.
  const running = walk.running || done < total || walk.finishedAt === null;
  return { state: running ? 'running' : total > 0 ? 'done' : 'idle', done, total };
}
