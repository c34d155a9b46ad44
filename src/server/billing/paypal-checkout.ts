/**
 * Wallet purchases through PayPal Subscriptions (DESIGN §8). The price is ours: the amount the
 * browser sends must equal the plan's price. Nothing is granted until PayPal itself says the
 * subscription is ACTIVE, whether we learn it on the buyer's return or from a webhook.
 */
import { BILLING_MESSAGES, type PaypalPaymentResponse } from '../../contract/billing';
import { loadBrand } from '../brand/brand-store';
import type { ClientRow, PlanRow, SubscriptionRow } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { PaypalSubscriptionInfo } from '../providers/payments/paypal';
import { activate } from './activation';
import type { BillingContext } from './billing-context';
import { paypalRequestId } from './checkout-keys';
import { requirePaypal } from './gateways';
import {
  claimPayment,
  findPaymentByProviderId,
  markPaidByProviderId,
  setPaymentStatus,
} from './payments-repository';
import { ensureProviderPrice } from './plans';
import {
  findByPaypalSubscription,
  findSubscription,
  isEnded,
  updateSubscription,
} from './subscriptions-repository';

export const PAYPAL_RETURN_PATH = '/api/billing/paypal/return';
export const PAYPAL_CANCEL_PATH = '/api/billing/paypal/cancel';

export async function startPaypalPayment(
  ctx: BillingContext,
  client: ClientRow,
  plan: PlanRow,
  amount: number,
): Promise<PaypalPaymentResponse> {
  const paypal = requirePaypal(ctx.gateways);
  const { db, now, config } = ctx.deps;
  if (Math.round(amount * 100) !== plan.monthly_price_cents) {
    throw badRequest(BILLING_MESSAGES.amountMismatch, { amount: BILLING_MESSAGES.amountMismatch });
  }
  const current = await findSubscription(db, client.id);
  const live = current && !isEnded(current, now()) ? current : undefined;
  if (
    live?.provider === 'paypal' &&
    live.plan_id === plan.id &&
    live.status === 'active' &&
    live.cancel_at_period_end === 0
  ) {
    throw conflict(BILLING_MESSAGES.alreadySubscribed);
  }
  const requestId = paypalRequestId(client.id, plan.id, live);
  const created = await paypal.createSubscription({
    paypalPlanId: await ensureProviderPrice(db, paypal, plan),
    clientId: client.id,
    returnUrl: `${config.publicUrl}${PAYPAL_RETURN_PATH}`,
    cancelUrl: `${config.publicUrl}${PAYPAL_CANCEL_PATH}`,
    requestId,
    // PayPal's approval page names the merchant: the agency's brand, as the client knows it.
    brandName: (await loadBrand(ctx.deps)).settings.name,
  });
  const attempt = {
    clientId: client.id,
    provider: 'paypal' as const,
    planId: plan.id,
    amountCents: plan.monthly_price_cents,
    idempotencyKey: requestId,
    status: 'pending' as const,
    providerId: created.id,
  };
  if (!(await claimPayment(db, attempt, now()))) await setPaymentStatus(db, requestId, 'pending', created.id);
  return {
    success: true,
    paypalUrl: created.approveUrl,
    message: 'Redirecting to PayPal to approve your subscription',
  };
}

/**
 * Applies PayPal's state of one subscription (buyer's return, webhooks). Answers the client it
 * belongs to when it is (now) that client's active subscription.
 */
export async function syncPaypalSubscription(
  ctx: BillingContext,
  info: PaypalSubscriptionInfo,
): Promise<string | null> {
  const { db, now } = ctx.deps;
  const row = await findByPaypalSubscription(db, info.id);
  if (row) {
    await updateSubscription(db, row.id, { ...paypalState(row, info, now()), updated_at: now() });
    if (info.status === 'ACTIVE') await markPaidByProviderId(db, 'paypal', info.id);
    return info.status === 'ACTIVE' ? row.client_id : null;
  }
  if (info.status !== 'ACTIVE') return null;
  const attempt = await findPaymentByProviderId(db, 'paypal', info.id);
  // custom_id is ours (the client id); a subscription naming someone else is not this attempt's.
  if (!attempt || (info.customId && info.customId !== attempt.client_id)) return null;
  await activate(ctx, {
    clientId: attempt.client_id,
    planId: attempt.plan_id,
    provider: 'paypal',
    status: 'active',
    paypalSubscriptionId: info.id,
    currentPeriodEnd: info.nextBillingTime,
    cancelAtPeriodEnd: false,
  });
  await markPaidByProviderId(db, 'paypal', info.id);
  return attempt.client_id;
}

/**
 * PayPal's statuses in our terms. A cancelled PayPal subscription bills no more, but what was paid
 * stays usable until the period ends (the row's period end; effectiveStatus ends it then).
 */
function paypalState(row: SubscriptionRow, info: PaypalSubscriptionInfo, now: number) {
  const periodEnd = info.nextBillingTime ?? row.current_period_end;
  switch (info.status) {
    case 'ACTIVE':
      return { status: 'active', current_period_end: periodEnd };
    case 'SUSPENDED':
      return { status: 'past_due', current_period_end: periodEnd };
    case 'CANCELLED': {
      const paidUntil = row.current_period_end;
      return paidUntil !== null && paidUntil > now
        ? { cancel_at_period_end: 1 }
        : { status: 'canceled', cancel_at_period_end: 1 };
    }
    case 'EXPIRED':
      return { status: 'canceled' };
    default:
      return {};
  }
}
