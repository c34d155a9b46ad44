/**
 * Changing plan on a card subscription: the price Stripe computes first (invoice
 * preview with the prorations billed at once), then the change itself with the saved card at the
 * preview's proration date, so the charge is the one shown. A pending cancellation stays pending:
 * changing plan is not a decision to renew (Resume is). PayPal subscriptions and clients without a
 * subscription buy a plan at /checkout instead.
 */

import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Subscription } from '../../contract/billing';
import {
  BILLING_MESSAGES,
  type ChangePlanResponse,
  cardLabel,
  PLAN_CHANGE_PREVIEW_TTL_SECONDS,
  type PlanChangePreview,
} from '../../contract/billing';
import { isoTime } from '../../contract/common';
import { minutesUsedThisMonth } from '../call-rows/usage';
import type { ClientRow, PlanRow, SubscriptionRow } from '../db/schema';
import { conflict, HttpError, notFound } from '../http/errors';
import type { StripeSubscriptionInfo } from '../providers/payments/stripe';
import { fromStripeStatus, isPaidStatus } from './activation';
import { awaitStripe } from './await-stripe';
import type { BillingContext } from './billing-context';
import { requireStripe } from './gateways';
import {
  claimPayment,
  findPaymentByKey,
  isReclaimable,
  type PaymentRow,
  reclaimPayment,
  setPaymentStatus,
} from './payments-repository';
import { ensureProviderPrice, findActivePlan, findPlan, toPlan } from './plans';
import { findSubscription, isEnded, toSubscription, updateSubscription } from './subscriptions-repository';

const REPEAT_WAIT_MS = 25_000;
const REPEAT_POLL_MS = 200;
/** A proration date this far ahead of our clock is refused (clocks differ by a little). */
const CLOCK_SLACK_SECONDS = 60;

interface CardSubscription {
  row: SubscriptionRow;
  stripeSubscriptionId: string;
  customerId: string;
  current: PlanRow;
}

/** The client's live card subscription, or the 409 that sends them to checkout. */
async function requireCardSubscription(ctx: BillingContext, client: ClientRow): Promise<CardSubscription> {
  const { db, now } = ctx.deps;
  const row = await findSubscription(db, client.id);
  if (
    !row ||
    isEnded(row, now()) ||
    row.provider !== 'card' ||
    !row.stripe_subscription_id ||
    row.status !== 'active' ||
    !client.stripe_customer_id
  ) {
    throw conflict(BILLING_MESSAGES.planChangeNeedsCard);
  }
  const current = await findPlan(db, row.plan_id);
  if (!current) throw conflict(BILLING_MESSAGES.planChangeNeedsCard);
  return {
    row,
    stripeSubscriptionId: row.stripe_subscription_id,
    customerId: client.stripe_customer_id,
    current,
  };
}

async function requirePlan(ctx: BillingContext, planId: string): Promise<PlanRow> {
  const plan = await findActivePlan(ctx.deps.db, planId);
  if (!plan) throw notFound(BILLING_MESSAGES.planNotFound);
  return plan;
}

const dollars = (cents: number) => cents / 100;

export async function previewPlanChange(
  ctx: BillingContext,
  client: ClientRow,
  planId: string,
): Promise<PlanChangePreview> {
  const plan = await requirePlan(ctx, planId);
  const card = await requireCardSubscription(ctx, client);
  if (card.row.plan_id === plan.id) throw conflict(BILLING_MESSAGES.samePlan);
  const stripe = requireStripe(ctx.gateways);
  const priceId = await ensureProviderPrice(ctx.deps.db, stripe, plan);
  const prorationDate = Math.floor(ctx.deps.now() / 1000);
  const preview = await stripe.previewPriceChange({
    customerId: card.customerId,
    subscriptionId: card.stripeSubscriptionId,
    priceId,
    prorationDate,
  });
  const cancelAtPeriodEnd = card.row.cancel_at_period_end === 1;
  return {
    planId: plan.id,
    currentPlan: toPlan(card.current),
    newPlan: toPlan(plan),
    amountDueNow: dollars(preview.amountDue),
    prorationTotal: dollars(preview.total),
    creditAfter: dollars(preview.creditAfter),
    currency: preview.currency,
    prorationDate,
    nextBillingDate: cancelAtPeriodEnd ? null : isoTime(card.row.current_period_end),
    currentPeriodEnd: isoTime(card.row.current_period_end),
    paymentMethod: cardLabel(card.row.card_brand, card.row.card_last4) ?? 'Card',
    cancelAtPeriodEnd,
  };
}

/** Same client, subscription, plan and proration date → same key: a double submit is one change. */
function planChangeKey(
  clientId: string,
  subscriptionId: string,
  planId: string,
  prorationDate: number,
): string {
  const digest = createHash('sha256')
    .update([clientId, subscriptionId, planId, String(prorationDate)].join('\u0000'))
    .digest('hex')
    .slice(0, 40);
  return `plan-change-${digest}`;
}

export async function changePlan(
  ctx: BillingContext,
  client: ClientRow,
  planId: string,
  prorationDate: number,
): Promise<ChangePlanResponse> {
  const plan = await requirePlan(ctx, planId);
  const card = await requireCardSubscription(ctx, client);
  const { db, now } = ctx.deps;
  const key = planChangeKey(client.id, card.stripeSubscriptionId, plan.id, prorationDate);
  const earlier = await findPaymentByKey(db, key);
  if (earlier?.status === 'plan_changed') {
    // The same request again (a double submit that came after the first finished).
    if (card.row.plan_id === plan.id) return succeeded(ctx, client, plan, earlier.amount_cents);
    throw conflict(BILLING_MESSAGES.planChangeExpired);
  }
  if (card.row.plan_id === plan.id) throw conflict(BILLING_MESSAGES.samePlan);
  const nowSeconds = Math.floor(now() / 1000);
  if (
    prorationDate < nowSeconds - PLAN_CHANGE_PREVIEW_TTL_SECONDS ||
    prorationDate > nowSeconds + CLOCK_SLACK_SECONDS
  ) {
    throw conflict(BILLING_MESSAGES.planChangeExpired);
  }
  const stripe = requireStripe(ctx.gateways);

  const attempt = await claim(ctx, key, client.id, plan.id);
  if (attempt === null) return awaitFirst(ctx, client, plan, key);
  try {
    const priceId = await ensureProviderPrice(ctx.deps.db, stripe, plan);
    const outcome = await stripe.changePriceNow({
      subscriptionId: card.stripeSubscriptionId,
      priceId,
      prorationDate,
      // Stripe replays by key for a day: each of our attempts gets its own.
      idempotencyKey: `${key}-${attempt}`,
    });
    if (outcome.status === 'requires_action') {
      await setPaymentStatus(db, key, 'requires_action', outcome.invoiceId);
      return {
        success: false,
        requiresAction: true,
        clientSecret: outcome.clientSecret,
        message: BILLING_MESSAGES.requiresAction,
      };
    }
    await applyChange(ctx, card.row, plan, outcome.info);
    await db
      .updateTable('payments')
      .set({ status: 'plan_changed', provider_id: outcome.invoiceId, amount_cents: outcome.amountPaid })
      .where('idempotency_key', '=', key)
      .execute();
    return succeeded(ctx, client, plan, outcome.amountPaid);
  } catch (error) {
    await setPaymentStatus(db, key, 'failed');
    throw error;
  }
}

/**
 * After Stripe.js confirmed the 3-D Secure payment of a plan change: Stripe is asked whether the
 * change went through (its invoice paid, no pending update left); the browser's word is not taken.
 */
export async function confirmPlanChange(
  ctx: BillingContext,
  client: ClientRow,
  planId: string,
): Promise<ChangePlanResponse> {
  const plan = await requirePlan(ctx, planId);
  const card = await requireCardSubscription(ctx, client);
  const { db } = ctx.deps;
  const waiting = await db
    .selectFrom('payments')
    .selectAll()
    .where('client_id', '=', client.id)
    .where('plan_id', '=', plan.id)
    .where('status', 'in', ['requires_action', 'plan_changed'])
    .where('idempotency_key', 'like', 'plan-change-%')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!waiting) throw notFound(BILLING_MESSAGES.noPendingChange);
  if (waiting.status === 'plan_changed' && card.row.plan_id === plan.id)
    return succeeded(ctx, client, plan, waiting.amount_cents);
  const stripe = requireStripe(ctx.gateways);
  const priceId = await ensureProviderPrice(ctx.deps.db, stripe, plan);
  // Stripe applies the pending change a moment after the payment succeeds (await-stripe.ts).
  const payment = await awaitStripe(ctx, stripe, card.stripeSubscriptionId, (p) => !p.info.pendingUpdate);
  if (payment === 'pending')
    return { success: false, pending: true, message: BILLING_MESSAGES.planChangePending };
  const { info } = payment;
  if (info.pendingUpdate || info.priceId !== priceId || !isPaidStatus(info.status)) {
    throw new HttpError(402, 'The payment has not been confirmed. Please try again or use another card.');
  }
  await applyChange(ctx, card.row, plan, info);
  await db
    .updateTable('payments')
    .set({ status: 'plan_changed' })
    .where('idempotency_key', '=', waiting.idempotency_key)
    .execute();
  return succeeded(ctx, client, plan, waiting.amount_cents);
}

async function applyChange(
  ctx: BillingContext,
  row: SubscriptionRow,
  plan: PlanRow,
  info: StripeSubscriptionInfo,
): Promise<void> {
  await updateSubscription(ctx.deps.db, row.id, {
    plan_id: plan.id,
    status: fromStripeStatus(info.status),
    current_period_end: info.currentPeriodEnd ?? row.current_period_end,
    cancel_at_period_end: info.cancelAtPeriodEnd ? 1 : 0,
    updated_at: ctx.deps.now(),
  });
}

async function succeeded(
  ctx: BillingContext,
  client: ClientRow,
  plan: PlanRow,
  amountCents: number,
): Promise<ChangePlanResponse> {
  return {
    success: true,
    message: BILLING_MESSAGES.planChanged(plan.name),
    amountCharged: dollars(amountCents),
    subscription: await subscriptionOf(ctx, client),
  };
}

export async function subscriptionOf(ctx: BillingContext, client: ClientRow): Promise<Subscription> {
  const { db, now } = ctx.deps;
  const row = await findSubscription(db, client.id);
  const plan = row && !isEnded(row, now()) ? await findPlan(db, row.plan_id) : undefined;
  if (!row || !plan) throw notFound(BILLING_MESSAGES.noSubscription);
  return toSubscription(row, plan, await minutesUsedThisMonth(db, client, now()), now());
}

/**
 * Claims the key (a new row, or an earlier attempt that may be taken over: its abandoned 3-D
 * Secure invoice is voided first, which drops the change it held). Null: another request holds it.
 */
async function claim(
  ctx: BillingContext,
  key: string,
  clientId: string,
  planId: string,
): Promise<number | null> {
  const { db, now } = ctx.deps;
  const t = now();
  const payment = {
    clientId,
    provider: 'stripe' as const,
    planId,
    amountCents: 0,
    idempotencyKey: key,
    status: 'processing' as const,
  };
  if (await claimPayment(db, payment, t)) return t;
  const previous = await findPaymentByKey(db, key);
  if (!previous || !isReclaimable(previous, t) || !(await reclaimPayment(db, previous, t))) return null;
  await dropAbandoned(ctx, previous);
  return t;
}

async function dropAbandoned(ctx: BillingContext, previous: PaymentRow): Promise<void> {
  if (previous.status !== 'requires_action' || !previous.provider_id) return;
  try {
    await requireStripe(ctx.gateways).voidInvoice(previous.provider_id);
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not void an abandoned plan-change invoice');
  }
}

/** A repeat of a change under way answers that change's outcome; it never charges again. */
async function awaitFirst(
  ctx: BillingContext,
  client: ClientRow,
  plan: PlanRow,
  key: string,
): Promise<ChangePlanResponse> {
  const deadline = Date.now() + REPEAT_WAIT_MS;
  let row = await findPaymentByKey(ctx.deps.db, key);
  while (row?.status === 'processing' && Date.now() < deadline) {
    await sleep(REPEAT_POLL_MS);
    row = await findPaymentByKey(ctx.deps.db, key);
  }
  if (row?.status === 'plan_changed') return succeeded(ctx, client, plan, row.amount_cents);
  if (row?.status === 'requires_action')
    throw conflict('This payment is waiting for your bank to confirm it');
  if (row?.status === 'processing') throw conflict(BILLING_MESSAGES.planChangeUnderWay);
  throw new HttpError(402, BILLING_MESSAGES.paymentFailed);
}
