/**
 * What the instances sharing a database know of backups, in `app_settings`:
 *   backup_last — the last backup that finished: when, its file and size (the metrics' gauges);
 *   backup_slot — the latest scheduled time an instance has claimed, so each scheduled backup
 *                 is taken by exactly one instance (claimSlot: one conditional update wins);
 * The scheduled backup running holds the lease `backup` (background/lease.ts), so two never
 * overlap. A backup copies this table too: a restored database says when its source was last backed up.
 */
import type { Kysely } from 'kysely';
import { claimLease, releaseLease } from '../background/lease';
import type { Database } from '../db/schema';

const LAST = 'backup_last';
const SLOT = 'backup_slot';
/** The lease of the scheduled backup running. */
const LEASE = 'backup';

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
 * Claims the scheduled time `slot` for `owner`: true for exactly one of the instances asking,
 * only if no later or equal slot was claimed before, and only while no backup holds the lease
 * (`backup`, lease.ts): a backup running long, past the next scheduled time, makes that one wait
 * (it is claimed once the lease is given back) rather than run beside it. The lease is taken for
 * `leaseMs` (a process that dies keeps it that long at most).
 */
export async function claimSlot(
  db: Kysely<Database>,
  slot: number,
  now: number,
  leaseMs: number,
  owner: string,
): Promise<boolean> {
  if (!(await claimLease(db, LEASE, owner, now, leaseMs))) return false;
  const text = slotText(slot);
  await db
    .insertInto('app_settings')
    .values({ key: SLOT, value: slotText(0) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const result = await db
    .updateTable('app_settings')
    .set({ value: text })
    .where('key', '=', SLOT)
    .where('value', '<', text)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return true;
  await releaseLease(db, LEASE, owner);
  return false;
}

/** The backup claimed with claimSlot has ended (done or failed): the next may be claimed. */
export async function releaseSlotLease(db: Kysely<Database>, owner: string): Promise<void> {
  await releaseLease(db, LEASE, owner);
}
