/**
 * The per-client sync lock (clients.sync_lock_until / sync_lock_owner), so two syncs of one client
 * (two tabs, two instances, sync-all) never interleave. The holder renews it with its heartbeat;
 * a lock not renewed for SYNC_STALE_MS is free, so a killed process holds it half a minute at
 * most, and on SQLite (one process) a new start frees every lock at once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Takes the client's lock when it is free or stale; true when this owner holds it now. */
export async function tryTakeSyncLock(
  db: Kysely<Database>,
  clientId: string,
  owner: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('clients')
    .set({ sync_lock_until: now + ttlMs, sync_lock_owner: owner })
    .where('id', '=', clientId)
    .where((eb) => eb.or([eb('sync_lock_until', 'is', null), eb('sync_lock_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The holder's heartbeat; false when the lock is no longer this owner's (it went stale and was taken). */
export async function renewSyncLock(
  db: Kysely<Database>,
  clientId: string,
  owner: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('clients')
    .set({ sync_lock_until: now + ttlMs })
    .where('id', '=', clientId)
    .where('sync_lock_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseSyncLock(db: Kysely<Database>, clientId: string, owner: string): Promise<void> {
  await db
    .updateTable('clients')
    .set({ sync_lock_until: null, sync_lock_owner: null })
    .where('id', '=', clientId)
    .where('sync_lock_owner', '=', owner)
    .execute();
}

/** SQLite at start: no other process can hold a lock, so every lock is left from a dead one. */
export async function releaseAllSyncLocks(db: Kysely<Database>): Promise<number> {
  const result = await db
    .updateTable('clients')
    .set({ sync_lock_until: null, sync_lock_owner: null })
    .where('sync_lock_owner', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
