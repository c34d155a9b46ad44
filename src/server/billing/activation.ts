/**
 * Keeps our subscription row true to the providers. Activation (a paid purchase) replaces the
 * client's subscription and ends the one it replaces at its provider: one live subscription per
 * client. Sync applies the provider's current state to the row that names it.
 */

import type { SubscriptionRow } from '../db/schema';
import type { CardDetails, StripeSubscriptionInfo } from '../providers/payments/stripe';
import type { BillingContext } from './billing-context';
import { findPaymentByProviderId, markPaidByProviderId } from './payments-repository';
import {
  type ActivatedSubscription,
  findByStripeSubscription,
  replaceSubscription,
  updateSubscription,
} from './subscriptions-repository';

/** Stripe's statuses in our terms: what the badge and the access rules need. */
export function fromStripeStatus(status: string): string {
  if (status === 'trialing') return 'active';
  if (status === 'unpaid') return 'past_due';
  if (status === 'incomplete_expired') return 'canceled';
  return status;
}

export const isPaidStatus = (status: string) => status === 'active' || status === 'trialing';

export async function activate(ctx: BillingContext, next: ActivatedSubscription): Promise<void> {
  const { previous } = await replaceSubscription(ctx.deps.db, next, ctx.deps.now());
  if (previous) await endReplaced(ctx, previous, next);
}

/** Ends the provider subscription the new one replaced; a failure is logged, never shown. */
async function endReplaced(
  ctx: BillingContext,
  previous: SubscriptionRow,
  next: ActivatedSubscription,
): Promise<void> {
  const { stripe, paypal } = ctx.gateways;
  const held = [
    { gateway: stripe, id: previous.stripe_subscription_id, kept: next.stripeSubscriptionId },
    { gateway: paypal, id: previous.paypal_subscription_id, kept: next.paypalSubscriptionId },
  ];
  try {
    for (const { gateway, id, kept } of held)
      if (gateway && id && id !== kept) await gateway.endSubscription(id, 'Replaced by a new subscription');
  } catch (error) {
    ctx.log.error({ err: error, clientId: previous.client_id }, 'could not end the replaced subscription');
  }
}

export function cardActivation(
  clientId: string,
  planId: string,
  info: StripeSubscriptionInfo,
  card: CardDetails | null,
): ActivatedSubscription {
  return {
    clientId,
    planId,
    provider: 'card',
    status: fromStripeStatus(info.status),
    stripeSubscriptionId: info.id,
    card: card ? { brand: card.brand, last4: card.last4, exp: card.exp } : null,
    currentPeriodEnd: info.currentPeriodEnd,
    cancelAtPeriodEnd: info.cancelAtPeriodEnd,
  };
}

/**
 * Applies Stripe's state of one subscription (webhooks, confirmation). A subscription we do not
 * hold yet is adopted only when it is paid and one of our purchase attempts created it.
 */
export async function syncStripeSubscription(
  ctx: BillingContext,
  info: StripeSubscriptionInfo,
): Promise<void> {
  const { db, now } = ctx.deps;
  const row = await findByStripeSubscription(db, info.id);
  if (row) {
    // A plan change applied at Stripe (e.g. once 3-D Secure paid it) shows up as the new price.
    const plan =
      info.priceId && !info.pendingUpdate
        ? await db
            .selectFrom('plans')
            .select('id')
            .where('stripe_price_id', '=', info.priceId)
            .executeTakeFirst()
        : undefined;
    await updateSubscription(db, row.id, {
      ...(plan && plan.id !== row.plan_id ? { plan_id: plan.id } : {}),
      status: fromStripeStatus(info.status),
      current_period_end: info.currentPeriodEnd,
      cancel_at_period_end: info.cancelAtPeriodEnd ? 1 : 0,
      updated_at: now(),
    });
    if (isPaidStatus(info.status)) await markPaidByProviderId(db, 'stripe', info.id);
    return;
  }
  if (!isPaidStatus(info.status)) return;
  const attempt = await findPaymentByProviderId(db, 'stripe', info.id);
  if (!attempt) return;
  await activate(ctx, cardActivation(attempt.client_id, attempt.plan_id, info, null));
  await markPaidByProviderId(db, 'stripe', info.id);
}
