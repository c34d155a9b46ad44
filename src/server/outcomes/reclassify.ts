/**
 * Re-classifying a client's calls after its outcomes change (or, the first time, the calls stored
 * before outcomes existed): in batches, under a lease so two instances never do it at once, with
 * progress kept in `client_outcomes`; then the outcome sums are rebuilt from the calls.
 */
import type { Kysely } from 'kysely';
import type { Reclassification } from '../../contract/outcomes';
import { rebuildOutcomeRollups } from '../calls/rollups';
import { timeZoneOf } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { classifyRow } from './classify-row';
import { outcomeSetOf } from './outcomes-repository';

const BATCH = 1_000;
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
          'error_message',
        ])
        .where('client_id', '=', clientId)
        .where('id', '>', after)
        .where(stale(version))
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx
            .updateTable('calls')
            .set(classifyRow(row, set))
            .where('id', '=', row.id)
            .where('client_id', '=', clientId)
            // A delivery that arrived meanwhile classified the call under this version already.
            .where(stale(version))
            .execute();
        }
      });
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
