/**
 * The one lease: a named claim with an expiry, held by one owner at a time across every instance
 * sharing the database (one row of `leases` per name). Taken by one conditional statement, so of
 * two instances asking at once exactly one wins; renewed by its holder while it works; given back
 * when done. A holder that dies keeps it until it expires, no longer.
 *
 * Used by the sync lock (`sync:{client}`), the per-client walks over calls (client-walk.ts) and the
 * scheduled backup. It owns no schedule and no work: callers decide when to claim and renew.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface LeaseHolder {
  owner: string;
  until: number;
}

/**
 * Claims `name` for `owner` until `now + ttlMs` when nobody holds it or its holder let it expire
 * (a lease is held while `until` is later than now); true when `owner` holds it now. Claiming a lease one already holds answers false (renew it).
 */
export async function claimLease(
  db: Kysely<Database>,
  name: string,
  owner: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const until = now + ttlMs;
  const result = await db
    .insertInto('leases')
    .values({ name, owner, until })
    .onConflict((oc) => oc.column('name').doUpdateSet({ owner, until }).where('leases.until', '<=', now))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The holder's heartbeat; false when the lease is no longer its own (it expired and was taken). */
export async function renewLease(
  db: Kysely<Database>,
  name: string,
  owner: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('leases')
    .set({ until: now + ttlMs })
    .where('name', '=', name)
    .where('owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease back, if `owner` still holds it (one taken over since is left alone). */
export async function releaseLease(db: Kysely<Database>, name: string, owner: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
}

/** Who holds `name` at `now`; null when nobody does (never claimed, given back or expired). */
export async function leaseHolder(
  db: Kysely<Database>,
  name: string,
  now: number,
): Promise<LeaseHolder | null> {
  const row = await db
    .selectFrom('leases')
    .select(['owner', 'until'])
    .where('name', '=', name)
    .where('until', '>', now)
    .executeTakeFirst();
  return row ? { owner: row.owner, until: Number(row.until) } : null;
}

/**
 * Drops every lease whose name starts with `prefix`: on SQLite (one process) a start knows every
 * lease left was held by a dead process.
 */
export async function releaseLeasesNamed(db: Kysely<Database>, prefix: string): Promise<number> {
  const result = await db.deleteFrom('leases').where('name', 'like', `${prefix}%`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
