/** Payment-provider webhook events already handled, so a replayed delivery changes nothing. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export async function isEventHandled(
  db: Kysely<Database>,
  provider: string,
  eventId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('provider_events')
    .select('event_id')
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return !!row;
}

/** Recorded after handling: a delivery that failed half-way is retried by the provider, not lost. */
export async function recordEventHandled(
  db: Kysely<Database>,
  provider: string,
  eventId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('provider_events')
    .values({ provider, event_id: eventId, received_at: now })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .execute();
}
