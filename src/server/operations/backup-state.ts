/**
 * What the instances sharing a database know of backups, in `app_settings`:
 *   backup_last — the last backup that finished: when, its file and size (the metrics' gauges);
 *   backup_slot — the latest scheduled time an instance has claimed, so each scheduled backup
 *                 is taken by exactly one instance (claimSlot: one conditional update wins);
 *   backup_running_until — the lease of the scheduled backup running, so two never overlap.
 * A backup copies this table too: a restored database says when its source was last backed up.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

const LAST = 'backup_last';
const SLOT = 'backup_slot';
const RUNNING = 'backup_running_until';

export interface LastBackup {
  finishedAt: number;
  file: string;
  bytes: number;
}

export async function lastBackup(db: Kysely<Database>): Promise<LastBackup | null> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', LAST).executeTakeFirst();
  if (!row) return null;
  try {
    // JSON.parse is any: the row is written only by recordBackup, from a LastBackup.
    return JSON.parse(row.value) as LastBackup;
  } catch {
    return null;
  }
}

export async function recordBackup(db: Kysely<Database>, last: LastBackup): Promise<void> {
  const value = JSON.stringify(last);
  await db
    .insertInto('app_settings')
    .values({ key: LAST, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Slots are stored as fixed-width digits, so text order is time order on both databases. */
const slotText = (at: number) => String(at).padStart(16, '0');

/** The scheduled time last claimed, or null before the first. */
export async function claimedSlot(db: Kysely<Database>): Promise<number | null> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', SLOT).executeTakeFirst();
  return row ? Number(row.value) : null;
}

/**
 * Claims the scheduled time `slot` for this instance: true for exactly one of the instances
 * asking, only if no later or equal slot was claimed before, and only while no backup holds the
 * lease (`backup_running_until`): a backup running long, past the next scheduled time, makes
 * that one wait (it is claimed once the lease is given back) rather than run beside it. The
 * lease is taken for `leaseMs` (a process that dies keeps it that long at most).
 */
export async function claimSlot(
  db: Kysely<Database>,
  slot: number,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const text = slotText(slot);
  await db
    .insertInto('app_settings')
    .values([
      { key: SLOT, value: slotText(0) },
      { key: RUNNING, value: slotText(0) },
    ])
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const result = await db
    .updateTable('app_settings')
    .set({ value: text })
    .where('key', '=', SLOT)
    .where('value', '<', text)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('app_settings as lease')
            .select('lease.key')
            .where('lease.key', '=', RUNNING)
            .where('lease.value', '>', slotText(now)),
        ),
      ),
    )
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('app_settings')
    .set({ value: slotText(now + leaseMs) })
    .where('key', '=', RUNNING)
    .execute();
  return true;
}

/** The backup claimed with claimSlot has ended (done or failed): the next may be claimed. */
export async function releaseSlotLease(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('app_settings')
    .set({ value: slotText(0) })
    .where('key', '=', RUNNING)
    .execute();
}
