/**
 * Usage: minutes of the client's calls this calendar month, in the client's time zone, from the
 * 15-minute rollups. Every real zone offset is a multiple of 15 minutes, so a month starts on a
 * bucket boundary and no call table scan is needed.
 */
import type { Kysely } from 'kysely';
import { localDate, startOfLocalDay } from '../calls/time-zones';
import type { Database } from '../db/schema';

export function startOfLocalMonth(now: number, timeZone: string): number {
  const today = localDate(now, timeZone);
  return startOfLocalDay(`${today.slice(0, 8)}01`, timeZone);
}

/** Whole minutes (rounded) of every call since the start of this month. */
export async function minutesUsedThisMonth(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  now: number,
): Promise<number> {
  const row = await db
    .selectFrom('call_rollups')
    .select((eb) => eb.fn.sum<number>('total_seconds').as('seconds'))
    .where('client_id', '=', client.id)
    .where('bucket_start', '>=', startOfLocalMonth(now, client.timezone))
    .executeTakeFirst();
  return Math.round(Number(row?.seconds ?? 0) / 60);
}
