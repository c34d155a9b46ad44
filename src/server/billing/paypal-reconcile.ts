/**
 * PayPal reconciliation: a lost or refused webhook must not leave a subscription in a
 * wrong state for long. Every run re-reads from PayPal the subscriptions we hold as active or
 * past due, and the attempts still waiting for a buyer (approved at PayPal but never activated
 * here), and applies what PayPal says through the same code the webhook and the return use.
 */
import type { Job } from '../http/jobs';
import type { BillingContext } from './billing-context';
import { syncPaypalSubscription } from './paypal-checkout';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Unfinished attempts older than this were abandoned: PayPal's approval links expire within hours. */
export const ATTEMPT_WINDOW_MS = 3 * DAY_MS;

export interface ReconcileResult {
  checked: number;
  failed: number;
}

export async function reconcilePaypal(ctx: BillingContext, limit = 100): Promise<ReconcileResult> {
  const paypal = ctx.gateways.paypal;
  if (!paypal) return { checked: 0, failed: 0 };
  const { db, now } = ctx.deps;
  const [held, attempts] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select('paypal_subscription_id as id')
      .where('provider', '=', 'paypal')
      .where('status', 'in', ['active', 'past_due'])
      .where('paypal_subscription_id', 'is not', null)
      // The least recently touched first: a long-quiet row is the likeliest to have missed an event.
      .orderBy('updated_at')
      .limit(limit)
      .execute(),
    db
      .selectFrom('payments')
      .select('provider_id as id')
      .where('provider', '=', 'paypal')
      .where('status', 'in', ['pending', 'processing', 'requires_action'])
      .where('provider_id', 'is not', null)
      .where('created_at', '>', now() - ATTEMPT_WINDOW_MS)
      .limit(limit)
      .execute(),
  ]);
  const ids = [...new Set([...held, ...attempts].map((r) => r.id).filter((id): id is string => !!id))];
  let failed = 0;
  for (const id of ids) {
    try {
      await syncPaypalSubscription(ctx, await paypal.getSubscription(id));
    } catch (error) {
      failed++;
      ctx.log.warn(
        { err: error, paypalSubscriptionId: id },
        'PayPal reconciliation could not read a subscription',
      );
    }
  }
  return { checked: ids.length, failed };
}

/**
 * Every instance reconciles now and then (PAYPAL_RECONCILE_INTERVAL_MS); the reads are idempotent,
 * so overlapping runs are harmless. Null when PayPal is not configured.
 */
export function paypalReconcileJob(ctx: BillingContext): Job | null {
  if (!ctx.gateways.paypal) return null;
  return {
    name: 'paypal-reconcile',
    intervalMs: ctx.deps.config.paypal.reconcileIntervalMs,
    run: () => {
      reconcilePaypal(ctx).catch((error) => ctx.log.warn({ err: error }, 'PayPal reconciliation failed'));
    },
  };
}
