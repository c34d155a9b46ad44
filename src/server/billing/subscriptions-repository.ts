/**
 * The subscriptions table: one row per client, the client's live subscription. A new purchase
 * replaces the row only once the provider says it is paid (active), so a pending 3-D Secure or
 * PayPal approval never hides the plan the client has now.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import { cardLabel, type Subscription } from '../../contract/billing';
import type { Database, PlanRow, SubscriptionRow, SubscriptionsTable } from '../db/schema';
import type { PaymentProvider } from '../providers/payments/types';
import { toPlan } from './plans';

export type SubscriptionChanges = Updateable<SubscriptionsTable>;

export function findSubscription(
  db: Kysely<Database>,
  clientId: string,
): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export function findByStripeSubscription(
  db: Kysely<Database>,
  stripeId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('stripe_subscription_id', '=', stripeId)
    .executeTakeFirst();
}

export function findByPaypalSubscription(
  db: Kysely<Database>,
  paypalId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('paypal_subscription_id', '=', paypalId)
    .executeTakeFirst();
}

/** Where a row keeps each provider's subscription id. */
const PROVIDER_SUBSCRIPTION_COLUMN = {
  stripe: 'stripe_subscription_id',
  paypal: 'paypal_subscription_id',
} as const satisfies Record<PaymentProvider, keyof SubscriptionRow>;

/** The row holding a provider's subscription (a webhook names it by the provider's id). */
export function findByProviderSubscription(
  db: Kysely<Database>,
  provider: PaymentProvider,
  subscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where(PROVIDER_SUBSCRIPTION_COLUMN[provider], '=', subscriptionId)
    .executeTakeFirst();
}

export async function updateSubscription(
  db: Kysely<Database>,
  id: string,
  changes: SubscriptionChanges,
): Promise<void> {
  await db.updateTable('subscriptions').set(changes).where('id', '=', id).execute();
}

/** What a paid purchase makes the client's subscription. */
export interface ActivatedSubscription {
  clientId: string;
  planId: string;
  provider: 'card' | 'paypal';
  status: string;
  stripeSubscriptionId?: string | null;
  paypalSubscriptionId?: string | null;
  card?: { brand: string | null; last4: string | null; exp: string | null } | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd?: boolean;
}

/**
 * Makes `next` the client's subscription and answers the row it replaced (if it named another
 * provider subscription, the caller cancels that one: one live subscription per client).
 */
export async function replaceSubscription(
  db: Kysely<Database>,
  next: ActivatedSubscription,
  now: number,
): Promise<{ previous: SubscriptionRow | undefined }> {
  return db.transaction().execute(async (trx) => {
    const previous = await findSubscription(trx, next.clientId);
    const values = {
      plan_id: next.planId,
      status: next.status,
      provider: next.provider,
      card_brand: next.card?.brand ?? null,
      card_last4: next.card?.last4 ?? null,
      card_exp: next.card?.exp ?? null,
      stripe_subscription_id: next.stripeSubscriptionId ?? null,
      paypal_subscription_id: next.paypalSubscriptionId ?? null,
      current_period_end: next.currentPeriodEnd,
      cancel_at_period_end: next.cancelAtPeriodEnd ? 1 : 0,
      updated_at: now,
    };
    if (previous) {
      await trx.updateTable('subscriptions').set(values).where('id', '=', previous.id).execute();
    } else {
      await trx
        .insertInto('subscriptions')
        .values({ id: randomUUID(), client_id: next.clientId, created_at: now, ...values })
        .execute();
    }
    return { previous };
  });
}

/**
 * A cancelled subscription keeps its plan until the period ends (SPEC §4); after that it reads
 * as canceled even before the provider's last event arrives.
 */
export function effectiveStatus(row: SubscriptionRow, now: number): string {
  if (row.cancel_at_period_end === 1 && row.current_period_end !== null && row.current_period_end <= now)
    return 'canceled';
  return row.status;
}

/** Ended subscriptions are not shown: the client has no active subscription. */
export function isEnded(row: SubscriptionRow, now: number): boolean {
  const status = effectiveStatus(row, now);
  return status === 'canceled' || status === 'incomplete_expired';
}

export function paymentMethodLabel(row: SubscriptionRow): string | null {
  if (row.provider === 'paypal') return 'PayPal';
  return cardLabel(row.card_brand, row.card_last4);
}

export function toSubscription(
  row: SubscriptionRow,
  plan: PlanRow,
  minutesUsed: number,
  now: number,
): Subscription {
  return {
    planId: row.plan_id,
    status: effectiveStatus(row, now),
    paymentMethod: paymentMethodLabel(row),
    currentPeriodEnd: row.current_period_end === null ? null : new Date(row.current_period_end).toISOString(),
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
    minutesUsedThisMonth: minutesUsed,
    plan: toPlan(plan),
    actionRequired: row.action_invoice_id !== null,
  };
}
