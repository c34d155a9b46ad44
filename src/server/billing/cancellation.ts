/**
 * Cancel (SPEC §4, DESIGN §6 [12]): the plan stays until the end of the paid period, then ends.
 * Stripe does that itself (cancel_at_period_end). PayPal has no such switch: its subscription is
 * cancelled now, so it never bills again, and our row keeps access until the period end.
 * Cancelling twice is harmless.
 */
import type { SubscriptionRow } from '../db/schema';
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
