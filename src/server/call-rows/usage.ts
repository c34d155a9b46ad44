/**
 * Usage: minutes of the client's calls this calendar month, in the client's time zone, from the
 * 15-minute rollups. Every real zone offset is a multiple of 15 minutes, so a month starts on a
 * bucket boundary and no call table scan is needed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { localDate, startOfLocalDay } from '../time/time-zones';

export function startOfLocalMonth(now: number, timeZone: string): number {
  const today = localDate(now, timeZone);
  return startOfLocalDay(`${today.slice(0, 8)}01`, timeZone);
}

/** Whole minutes (rounded) of every real call since the start of this month; sample calls are free. */
export async function minutesUsedThisMonth(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  now: number,
): Promise<number> {
  return minutesBetween(db, client.id, startOfLocalMonth(now, client.timezone), null);
}

/**
 * Whole minutes (rounded) of real calls created in [start, end) (end null: open), sample calls
 * left out. `start` and `end` must be 15-minute boundaries (local day starts are).
 */
export async function minutesBetween(
  db: Kysely<Database>,
  clientId: string,
  start: number,
  end: number | null,
): Promise<number> {
  let rollups = db
    .selectFrom('call_rollups')
    .select((eb) => eb.fn.sum<number>('total_seconds').as('seconds'))
    .where('client_id', '=', clientId)
    .where('bucket_start', '>=', start);
  // A few dozen rows at most: the sample set a client added to try the dashboard.
  let samples = db
    .selectFrom('calls')
    .select((eb) => eb.fn.sum<number>('duration_seconds').as('seconds'))
    .where('client_id', '=', clientId)
    .where('source', '=', 'sample')
    .where('is_proxy', '=', 0)
    .where('created_at', '>=', start);
  if (end !== null) {
    rollups = rollups.where('bucket_start', '<', end);
    samples = samples.where('created_at', '<', end);
  }
  const [all, sample] = await Promise.all([rollups.executeTakeFirst(), samples.executeTakeFirst()]);
  return Math.round(Math.max(0, Number(all?.seconds ?? 0) - Number(sample?.seconds ?? 0)) / 60);
}
