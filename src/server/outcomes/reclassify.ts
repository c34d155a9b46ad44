/**
 * Re-classifying a client's calls after its outcomes change (or, the first time, the calls stored
 * before outcomes existed): in batches, under a lease so two instances never do it at once, with
 * progress kept in `client_outcomes`; then the outcome sums are rebuilt from the calls.
 *
 * A client's list may hold 200 `contains` rules and its transcripts run to 900 KB, so the run is
 * bounded like the preview: reads sized by bytes, each call's texts folded once,
 * the classification in slices that let the event loop turn, and each batch written in one short
 * transaction after it is classified (never holding the connection across a pause).
 */
import type { Kysely } from 'kysely';
import type { Reclassification } from '../../contract/outcomes';
import { rebuildOutcomeRollups } from '../calls/write/rollups';
import { timeZoneOf } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { type ClassifiedColumns, classifyRowSteps } from './classify-row';
import { outcomeSetOf } from './outcomes-repository';
import { createWorkSlices, nextBatchSize, runSliced } from '../http/work-slices';

const MAX_BATCH = 1_000;
const FIRST_BATCH = 4;
/** Text read per batch, whatever the calls' sizes. */
const BATCH_BYTES = 4_000_000;
const LEASE_MS = 60_000;

/** Makes sure a client has its row (the defaults, version 0) to hold progress and the lease. */
async function ensureRow(db: Kysely<Database>, clientId: string, now: number) {
  const { outcomes, version } = await outcomeSetOf(db, clientId);
  await db
    .insertInto('client_outcomes')
    .values({ client_id: clientId, outcomes_json: JSON.stringify(outcomes), version, updated_at: now })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
}

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

const stale = (version: number) => (eb: import('kysely').ExpressionBuilder<Database, 'calls'>) =>
  eb.or([eb('outcome_version', 'is', null), eb('outcome_version', '!=', version)]);

/** Whether some of the client's calls are classified under an older list (or never). */
export async function needsReclassification(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const { version } = await outcomeSetOf(db, clientId);
  const row = await db
    .selectFrom('calls')
    .select('id')
    .where('client_id', '=', clientId)
    .where(stale(version))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Runs to the end unless another instance holds the lease (then returns false at once). Safe to
 * call again at any time: it only touches calls classified under another version.
 */
export async function reclassifyClient(
  db: Kysely<Database>,
  clientId: string,
  now: () => number = Date.now,
): Promise<boolean> {
  await ensureRow(db, clientId, now());
  const taken = await db
    .updateTable('client_outcomes')
    .set({ reclassify_lock_until: now() + LEASE_MS })
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('reclassify_lock_until', 'is', null), eb('reclassify_lock_until', '<', now())]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return false;
  try {
    const set = await outcomeSetOf(db, clientId);
    const { version } = set;
    const { total } = await db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('client_id', '=', clientId)
      .where(stale(version))
      .executeTakeFirstOrThrow();
    await db
      .updateTable('client_outcomes')
      .set({ reclassify_done: 0, reclassify_total: Number(total) })
      .where('client_id', '=', clientId)
      .execute();

    let done = 0;
    let after = '';
    let limit = FIRST_BATCH;
    const slices = createWorkSlices();
    for (;;) {
      const rows = await db
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
        .where(stale(version))
        .orderBy('id')
        .limit(limit)
        .execute();
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const classified: { id: string; size: number; columns: ClassifiedColumns }[] = [];
      let bytes = 0;
      for (const row of rows) {
        const size =
          (row.summary?.length ?? 0) + (row.transcript?.length ?? 0) + (row.variables_json?.length ?? 0);
        bytes += size;
        await slices.pause();
        classified.push({ id: row.id, size, columns: await runSliced(classifyRowSteps(row, set), slices) });
      }
      limit = nextBatchSize(rows.length, bytes, BATCH_BYTES, MAX_BATCH);
      // SQLite rewrites a row whole (its transcript too) on any update: a transaction writes
      // about BATCH_BYTES of rows, then the loop turns.
      for (const chunk of byBytes(classified, BATCH_BYTES)) {
        await slices.pause();
        await db.transaction().execute(async (trx) => {
          for (const { id, columns } of chunk) {
            await trx
              .updateTable('calls')
              .set(columns)
              .where('id', '=', id)
              .where('client_id', '=', clientId)
              // A delivery that arrived meanwhile classified the call under this version already.
              .where(stale(version))
              .execute();
          }
        });
      }
      done += rows.length;
      await db
        .updateTable('client_outcomes')
        .set({ reclassify_done: done, reclassify_lock_until: now() + LEASE_MS })
        .where('client_id', '=', clientId)
        .execute();
    }
    // Calls deleted during the run were counted in the total but never read: the run is whole.
    await db
      .updateTable('client_outcomes')
      .set({ reclassify_done: done, reclassify_total: done })
      .where('client_id', '=', clientId)
      .execute();
    const timeZone = await timeZoneOf(db, clientId);
    await db.transaction().execute((trx) => rebuildOutcomeRollups(trx, clientId, timeZone));
    return true;
  } finally {
    await db
      .updateTable('client_outcomes')
      .set({ reclassify_lock_until: null })
      .where('client_id', '=', clientId)
      .execute();
  }
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
  const row = await db
    .selectFrom('client_outcomes')
    .select(['reclassify_done', 'reclassify_total', 'reclassify_lock_until'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return { state: 'idle', done: 0, total: 0 };
  const done = Number(row.reclassify_done);
  const total = Number(row.reclassify_total);
  const leased = row.reclassify_lock_until !== null && Number(row.reclassify_lock_until) > now;
  const running = leased || done < total;
  return { state: running ? 'running' : total > 0 ? 'done' : 'idle', done, total };
}
