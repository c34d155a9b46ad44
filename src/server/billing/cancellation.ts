/**
 * Cancel (SPEC §4, DESIGN §6 [12]): the plan stays until the end of the paid period, then ends.
 * Stripe does that itself (cancel_at_period_end). PayPal has no such switch: its subscription is
 * cancelled now, so it never bills again, and our row keeps access until the period end.
 * Cancelling twice is harmless.
 */
import { BILLING_MESSAGES } from '../../contract/billing';
import type { SubscriptionRow } from '../db/schema';
import { conflict } from '../http/errors';
import { fromStripeStatus } from './activation';
import type { BillingContext } from './billing-context';
import { requirePaypal, requireStripe } from './gateways';
import { updateSubscription } from './subscriptions-repository';

export async function cancelAtPeriodEnd(ctx: BillingContext, row: SubscriptionRow): Promise<void> {
  if (row.cancel_at_period_end === 1) return;
  const { db, now } = ctx.deps;
  if (row.provider === 'card' && row.stripe_subscription_id) {
    const info = await requireStripe(ctx.gateways).setCancelAtPeriodEnd(row.stripe_subscription_id, true);
    await updateSubscription(db, row.id, {
      status: fromStripeStatus(info.status),
      current_period_end: info.currentPeriodEnd ?? row.current_period_end,
      cancel_at_period_end: info.cancelAtPeriodEnd ? 1 : 0,
      updated_at: now(),
    });
    return;
  }
  if (row.provider === 'paypal' && row.paypal_subscription_id) {
    await requirePaypal(ctx.gateways).cancelSubscription(
      row.paypal_subscription_id,
      'Cancelled by the customer in settings',
    );
  }
  await updateSubscription(db, row.id, { cancel_at_period_end: 1, updated_at: now() });
}

/**
 * Resume: a card subscription whose cancellation is pending renews again (Stripe:
 * cancel_at_period_end=false). A PayPal subscription was cancelled at PayPal when the client
 * cancelled, so it cannot come back: 409, subscribe again. Resuming one that renews is harmless.
 */
export async function resumeSubscription(ctx: BillingContext, row: SubscriptionRow): Promise<void> {
  if (row.provider !== 'card' || !row.stripe_subscription_id) {
    if (row.cancel_at_period_end === 1) throw conflict(BILLING_MESSAGES.resumeNeedsCard);
    return;
  }
  if (row.cancel_at_period_end !== 1) return;
  const info = await requireStripe(ctx.gateways).setCancelAtPeriodEnd(row.stripe_subscription_id, false);
  await updateSubscription(ctx.deps.db, row.id, {
    status: fromStripeStatus(info.status),
    current_period_end: info.currentPeriodEnd ?? row.current_period_end,
    cancel_at_period_end: info.cancelAtPeriodEnd ? 1 : 0,
    updated_at: ctx.deps.now(),
  });
}
