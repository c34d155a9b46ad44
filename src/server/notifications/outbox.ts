/**
 * The transactional outbox. `enqueue` runs inside the transaction that causes the
 * message; `claimDue` hands due messages to one worker at a time (FOR UPDATE SKIP LOCKED on
 * PostgreSQL, so several instances never claim the same row; SQLite has a single writer), under
 * a lease, so a worker killed mid-send leaves the message to be taken over once the lease ends.
 * Claims are fair: every destination's oldest message before anyone's second, and a
 * bounded number per destination at once, so one client's slow endpoint delays only its own.
 *
 * Delivery is at least once: a worker that dies after the SMTP server or the client's endpoint
 * accepted a message but before it recorded that will send it again after the lease. Every
 * message carries its outbox id (Message-ID for e-mail, the event id for webhooks) so the
 * receiving end can tell a repeat from a new message.
 */
import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/connect';
import type { Database, OutboxRow } from '../db/schema';

export type Channel = 'email' | 'sms' | 'webhook';

export interface NewMessage {
  clientId: string | null;
  channel: Channel;
  topic: string;
  /** One cause, one message: a second enqueue with the same key is ignored. */
  dedupeKey: string;
  payload: unknown;
  /** Not before (quiet hours, a digest's hour); now when absent. */
  notBefore?: number;
}

/** How long a claim lasts: longer than any one send (SMTP 15 s, webhooks 3 + 5 s). */
export const CLAIM_LEASE_MS = 60_000;
/** Retries back off exponentially from 30 s, up to 1 h between tries, for 24 h in all. */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_GAP_MS = 60 * 60 * 1000;

export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_GAP_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** Told when messages were queued in this process: a running worker looks soon, not at its next tick. */
const enqueueListeners = new Set<() => void>();
export function onEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

export async function enqueue(db: Kysely<Database>, messages: NewMessage[], now: number): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = messages.map((m) => ({
    id: randomUUID(),
    client_id: m.clientId,
    channel: m.channel,
    topic: m.topic,
    dedupe_key: m.dedupeKey,
    payload_json: JSON.stringify(m.payload),
    status: 'pending',
    attempts: 0,
    next_attempt_at: Math.max(now, m.notBefore ?? now),
    created_at: now,
  }));
  const inserted = await db
    .insertInto('outbox')
    .values(rows)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  if (inserted.length > 0) for (const listener of enqueueListeners) listener();
  return inserted.length;
}

/**
 * How many messages of one destination (a client's channel: its webhook URL, its e-mail, its
 * texts) are sent at once, over all instances: a slow endpoint holds this many sends, no more.
 */
export const PER_DESTINATION = 2;

/**
 * Claims up to `limit` due messages for `worker`, fairly: the oldest due message of every
 * destination (client × channel) before a second of any, and none of a destination that already
 * has `perDestination` messages under a live lease (being sent now, by any instance). Each
 * claimed message is the worker's until the lease ends.
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: Dialect,
  worker: string,
  now: number,
  channels: readonly Channel[],
  limit = 10,
  perDestination = PER_DESTINATION,
): Promise<OutboxRow[]> {
  if (channels.length === 0 || limit <= 0) return [];
  const isFree = (eb: ExpressionBuilder<Database, 'outbox'>) =>
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]);
  // Each due message numbered within its destination: live leases first, then by due time.
  const ranked = db
    .selectFrom('outbox')
    .select([
      'id',
      'next_attempt_at',
      'claimed_until',
      sql<number>`row_number() over (partition by client_id, channel order by case when claimed_until >= ${now} then 0 else 1 end, next_attempt_at, created_at, id)`.as(
        'slot',
      ),
    ])
    .where('status', '=', 'pending')
    .where('channel', 'in', [...channels])
    .where('next_attempt_at', '<=', now);
  const fair = db
    .selectFrom(ranked.as('r'))
    .select('r.id')
    .where('r.slot', '<=', perDestination)
    .where((eb) => eb.or([eb('r.claimed_until', 'is', null), eb('r.claimed_until', '<', now)]))
    .orderBy('r.slot')
    .orderBy('r.next_attempt_at')
    .limit(limit);
  // PostgreSQL: rows another instance is claiming this instant are skipped, not waited for (a
  // window function cannot be locked, so the lock is taken by a plain select of the chosen ids).
  const ids =
    dialect === 'postgres'
      ? db
          .selectFrom('outbox')
          .select('id')
          .where('id', 'in', fair)
          .where('status', '=', 'pending')
          .where(isFree)
          .forUpdate()
          .skipLocked()
      : fair;
  return (
    db
      .updateTable('outbox')
      .set({ claimed_until: now + CLAIM_LEASE_MS, claimed_by: worker })
      .where('id', 'in', ids)
      // Re-checked by the update itself: on SQLite nothing locked the rows between select and update.
      .where('status', '=', 'pending')
      .where(isFree)
      .returningAll()
      .execute()
  );
}

/**
 * A failed try says the destination is failing: its other due messages (not being sent now)
 * wait as long as the failed one, instead of each waiting out its own timeout meanwhile. They
 * are not tried, so their attempts stay; the oldest goes first when the wait is over.
 */
export async function deferDestination(
  db: Kysely<Database>,
  message: Pick<OutboxRow, 'id' | 'client_id' | 'channel'>,
  now: number,
  until: number,
): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set({ next_attempt_at: until })
    .where('status', '=', 'pending')
    .where('channel', '=', message.channel)
    .where((eb) =>
      message.client_id === null ? eb('client_id', 'is', null) : eb('client_id', '=', message.client_id),
    )
    .where('id', '!=', message.id)
    .where('next_attempt_at', '<', until)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records a delivery; only the worker holding the claim may (a lease taken over is not ours). */
export async function markSent(
  db: Kysely<Database>,
  message: Pick<OutboxRow, 'id' | 'claimed_by'>,
  now: number,
  statusCode: number | null = null,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      status: 'sent',
      sent_at: now,
      attempts: sql`attempts + 1`,
      claimed_until: null,
      last_error: null,
      last_status_code: statusCode,
    })
    .where('id', '=', message.id)
    .where('claimed_by', '=', message.claimed_by)
    .execute();
}

/** Records a failed try: retried later with backoff, or given up once it has tried for 24 h. */
export async function markFailed(
  db: Kysely<Database>,
  message: Pick<OutboxRow, 'id' | 'claimed_by' | 'attempts' | 'created_at'>,
  now: number,
  error: string,
  statusCode: number | null = null,
): Promise<'retry' | 'failed'> {
  const attempts = message.attempts + 1;
  const next = now + retryDelay(attempts);
  const giveUp = next - Number(message.created_at) > RETRY_FOR_MS;
  await db
    .updateTable('outbox')
    .set({
      status: giveUp ? 'failed' : 'pending',
      attempts,
      next_attempt_at: giveUp ? now : next,
      claimed_until: null,
      last_error: error.slice(0, 500),
      last_status_code: statusCode,
    })
    .where('id', '=', message.id)
    .where('claimed_by', '=', message.claimed_by)
    .execute();
  return giveUp ? 'failed' : 'retry';
}

/** A message that cannot be sent at all (no address, channel switched off since): not retried. */
export async function markCancelled(
  db: Kysely<Database>,
  message: Pick<OutboxRow, 'id' | 'claimed_by'>,
  reason: string,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'cancelled', claimed_until: null, last_error: reason.slice(0, 500) })
    .where('id', '=', message.id)
    .where('claimed_by', '=', message.claimed_by)
    .execute();
}
