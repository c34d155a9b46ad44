/**
 * The payments table: one row per purchase attempt, keyed by an idempotency key. Inserting the row
 * is the claim that serialises a double click: whoever inserts it does the provider work, a
 * repeat with the same key waits for that outcome instead of charging again.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PaymentsTable } from '../db/schema';

export type PaymentRow = Selectable<PaymentsTable>;

/** processing → succeeded | requires_action | failed; PayPal: pending → succeeded | canceled. */
export type PaymentStatus =
  | 'processing'
  | 'succeeded'
  | 'requires_action'
  | 'failed'
  | 'pending'
  | 'canceled'
  | 'plan_changed';

/** A claim older than this belongs to a request that died half-way; it may be taken over. */
const STALE_CLAIM_MS = 60_000;

export interface NewPayment {
  clientId: string;
  provider: 'stripe' | 'paypal';
  planId: string;
  amountCents: number;
  idempotencyKey: string;
  status: PaymentStatus;
  providerId?: string | null;
}

/** Inserts the row; false when the key is already taken (a repeat of the same attempt). */
export async function claimPayment(db: Kysely<Database>, p: NewPayment, now: number): Promise<boolean> {
  const result = await db
    .insertInto('payments')
    .values({
      id: randomUUID(),
      client_id: p.clientId,
      provider: p.provider,
      provider_id: p.providerId ?? null,
      plan_id: p.planId,
      amount_cents: p.amountCents,
      status: p.status,
      idempotency_key: p.idempotencyKey,
      created_at: now,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Whether a new submit may take over an earlier attempt with the same key: it failed, the buyer
 * left it (cancelled at PayPal, or a 3-D Secure challenge that was failed or abandoned), or the
 * request handling it died half-way.
 */
export function isReclaimable(row: PaymentRow, now: number): boolean {
  if (row.status === 'failed' || row.status === 'canceled' || row.status === 'requires_action') return true;
  return row.status === 'processing' && row.created_at < now - STALE_CLAIM_MS;
}

/** Takes over `previous` unless another request got there first (it must still be as read). */
export async function reclaimPayment(
  db: Kysely<Database>,
  previous: PaymentRow,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ status: 'processing', provider_id: null, created_at: now })
    .where('idempotency_key', '=', previous.idempotency_key)
    .where('status', '=', previous.status)
    .where('created_at', '=', previous.created_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function findPaymentByKey(db: Kysely<Database>, key: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

export function findPaymentByProviderId(
  db: Kysely<Database>,
  provider: 'stripe' | 'paypal',
  providerId: string,
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_id', '=', providerId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** The client's newest attempt on a plan in one of the given states. */
/** The client's latest payment in one of these states, for one plan or (planId null) any. */
export function findLatestPayment(
  db: Kysely<Database>,
  clientId: string,
  provider: 'stripe' | 'paypal',
  planId: string | null,
  statuses: PaymentStatus[],
): Promise<PaymentRow | undefined> {
  let q = db
    .selectFrom('payments')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('provider', '=', provider)
    .where('status', 'in', statuses);
  if (planId !== null) q = q.where('plan_id', '=', planId);
  return q.orderBy('created_at', 'desc').executeTakeFirst();
}

export async function setPaymentStatus(
  db: Kysely<Database>,
  key: string,
  status: PaymentStatus,
  providerId?: string | null,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ status, ...(providerId === undefined ? {} : { provider_id: providerId }) })
    .where('idempotency_key', '=', key)
    .execute();
}

/** Marks the attempt that created a provider subscription as paid (webhook and confirm paths). */
export async function markPaidByProviderId(
  db: Kysely<Database>,
  provider: 'stripe' | 'paypal',
  providerId: string,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ status: 'succeeded' })
    .where('provider', '=', provider)
    .where('provider_id', '=', providerId)
    .where('status', 'in', ['requires_action', 'pending', 'processing'])
    .execute();
}
