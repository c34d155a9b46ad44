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

/** Whole minutes (rounded) of every real call since the start of this month; sample calls are free. */
export async function minutesUsedThisMonth(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  now: number,
): Promise<number> {
  const monthStart = startOfLocalMonth(now, client.timezone);
  const [all, samples] = await Promise.all([
    db
      .selectFrom('call_rollups')
      .select((eb) => eb.fn.sum<number>('total_seconds').as('seconds'))
      .where('client_id', '=', client.id)
      .where('bucket_start', '>=', monthStart)
      .executeTakeFirst(),
    // A few dozen rows at most: the sample set a client added to try the dashboard.
    db
      .selectFrom('calls')
      .select((eb) => eb.fn.sum<number>('duration_seconds').as('seconds'))
      .where('client_id', '=', client.id)
      .where('source', '=', 'sample')
      .where('is_proxy', '=', 0)
      .where('created_at', '>=', monthStart)
      .executeTakeFirst(),
  ]);
  return Math.round(Math.max(0, Number(all?.seconds ?? 0) - Number(samples?.seconds ?? 0)) / 60);
}
