/**
 * Card purchases through Stripe (DESIGN §8): customer, card, subscription with an idempotency key;
 * 3-D Secure answered with the PaymentIntent's client secret; declines with Stripe's own words.
 * A client that already pays by card and picks another plan keeps its subscription: the price
 * changes (Stripe prorates) instead of a second subscription charging for the same month.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BILLING_MESSAGES, cardLabel, type StripePaymentResponse } from '../../contract/billing';
import { updateClient } from '../clients/clients-repository';
import type { ClientRow, PlanRow, SubscriptionRow } from '../db/schema';
import { conflict, HttpError, notFound } from '../http/errors';
import type { CardDetails, StripeGateway } from '../providers/payments/stripe';
import {
  activate,
  cardActivation,
  fromStripeStatus,
  isPaidStatus,
  syncStripeSubscription,
} from './activation';
import { awaitStripe, PAID_OR_PAYING } from './await-stripe';
import type { BillingContext } from './billing-context';
import { checkoutKey } from './checkout-keys';
import { requireStripe } from './gateways';
import {
  claimPayment,
  findLatestPayment,
  findPaymentByKey,
  isReclaimable,
  markPaidByProviderId,
  type NewPayment,
  reclaimPayment,
  setPaymentStatus,
} from './payments-repository';
import { ensureProviderPrice } from './plans';
import {
  findByStripeSubscription,
  findSubscription,
  isEnded,
  updateSubscription,
} from './subscriptions-repository';

/** How long a repeated submit waits for the first one's outcome before giving up. */
const REPEAT_WAIT_MS = 25_000;
const REPEAT_POLL_MS = 200;

export async function processCardPayment(
  ctx: BillingContext,
  client: ClientRow,
  plan: PlanRow,
  paymentMethodId: string,
): Promise<StripePaymentResponse> {
  const stripe = requireStripe(ctx.gateways);
  const { db, now } = ctx.deps;
  const current = await findSubscription(db, client.id);
  const live = current && !isEnded(current, now()) ? current : undefined;
  await refuseWhileConfirming(ctx, stripe, client.id);
  if (live && (await justBought(ctx, live, plan))) return { success: true, message: successMessage(plan) };
  const key = checkoutKey(client.id, plan.id, paymentMethodId, live);
  const attempt = await claimAttempt(ctx, stripe, {
    clientId: client.id,
    provider: 'stripe',
    planId: plan.id,
    amountCents: plan.monthly_price_cents,
    idempotencyKey: key,
    status: 'processing',
  });
  if (attempt === null) return awaitFirstAttempt(ctx, key, plan);
  // Stripe replays answers by idempotency key for a day: each of our attempts needs its own.
  const stripeKey = `${key}-${attempt}`;

  try {
    const customerId = await ensureCustomer(ctx, stripe, client);
    if (live?.provider === 'card' && live.stripe_subscription_id && live.status === 'active') {
      await changeCardPlan(ctx, stripe, live, plan, customerId, paymentMethodId, stripeKey);
      await setPaymentStatus(db, key, 'plan_changed', live.stripe_subscription_id);
      return { success: true, message: successMessage(plan) };
    }
    const card = await stripe.attachPaymentMethod(customerId, paymentMethodId);
    const created = await stripe.createSubscription({
      customerId,
      priceId: await ensureProviderPrice(ctx.deps.db, stripe, plan),
      paymentMethodId: card.paymentMethodId,
      clientId: client.id,
      planId: plan.id,
      idempotencyKey: stripeKey,
    });
    if (created.clientSecret) {
      await setPaymentStatus(db, key, 'requires_action', created.id);
      return {
        success: false,
        requiresAction: true,
        clientSecret: created.clientSecret,
        message: BILLING_MESSAGES.requiresAction,
      };
    }
    if (!isPaidStatus(created.status)) {
      await stripe.cancelNow(created.id).catch(() => undefined);
      throw new HttpError(402, BILLING_MESSAGES.paymentFailed);
    }
    await setPaymentStatus(db, key, 'succeeded', created.id);
    await activate(ctx, cardActivation(client.id, plan.id, created, card));
    return { success: true, message: successMessage(plan) };
  } catch (error) {
    await setPaymentStatus(db, key, 'failed');
    throw error;
  }
}

/**
 * Claims the key for this request: a new row, or an earlier attempt that may be taken over (its
 * abandoned 3-D Secure subscription is ended first). Answers the attempt's stamp, or null when
 * another request holds the key.
 */
async function claimAttempt(
  ctx: BillingContext,
  stripe: StripeGateway,
  payment: NewPayment,
): Promise<number | null> {
  const { db, now } = ctx.deps;
  const t = now();
  if (await claimPayment(db, payment, t)) return t;
  const previous = await findPaymentByKey(db, payment.idempotencyKey);
  if (!previous || !isReclaimable(previous, t) || !(await reclaimPayment(db, previous, t))) return null;
  if (previous.status === 'requires_action' && previous.provider_id) {
    try {
      // Only an abandoned one: a subscription whose payment went through is about to turn active.
      const left = await stripe.getSubscriptionPayment(previous.provider_id);
      if (left.info.status === 'incomplete' && !PAID_OR_PAYING.has(left.paymentStatus ?? ''))
        await stripe.cancelNow(left.info.id);
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not end an abandoned incomplete subscription');
    }
  }
  return t;
}

const successMessage = (plan: PlanRow) => `Successfully subscribed to ${plan.name}!`;

/**
 * A second press of "pay" that arrives after the first purchase finished sees the subscription
 * it created, so its key is not the first one's; the plan bought moments ago (within the time a
 * repeat waits for the first) is that same purchase, not a change to the same plan, and records
 * no second payment. A pending cancellation is not "just bought": buying again withdraws it.
 */
async function justBought(ctx: BillingContext, live: SubscriptionRow, plan: PlanRow): Promise<boolean> {
  if (live.provider !== 'card' || live.plan_id !== plan.id || live.status !== 'active') return false;
  if (live.cancel_at_period_end === 1 || !live.stripe_subscription_id) return false;
  const last = await findLatestPayment(ctx.deps.db, live.client_id, 'stripe', plan.id, ['succeeded']);
  return (
    last?.provider_id === live.stripe_subscription_id &&
    ctx.deps.now() - Number(last.created_at) < REPEAT_WAIT_MS
  );
}

/**
 * A payment confirmed with 3-D Secure whose subscription Stripe has not activated yet: a second
 * purchase now would create a second subscription (and the first, once active, would charge too).
 */
async function refuseWhileConfirming(ctx: BillingContext, stripe: StripeGateway, clientId: string) {
  const waiting = await findLatestPayment(ctx.deps.db, clientId, 'stripe', null, ['requires_action']);
  if (!waiting?.provider_id) return;
  const { info, paymentStatus } = await stripe.getSubscriptionPayment(waiting.provider_id);
  if (info.status === 'incomplete' && PAID_OR_PAYING.has(paymentStatus ?? ''))
    throw conflict(BILLING_MESSAGES.confirmationUnderway);
}

/** A repeat of a purchase that is under way answers that purchase's outcome; it never charges again. */
async function awaitFirstAttempt(
  ctx: BillingContext,
  key: string,
  plan: PlanRow,
): Promise<StripePaymentResponse> {
  const deadline = Date.now() + REPEAT_WAIT_MS;
  let row = await findPaymentByKey(ctx.deps.db, key);
  while (row?.status === 'processing' && Date.now() < deadline) {
    await sleep(REPEAT_POLL_MS);
    row = await findPaymentByKey(ctx.deps.db, key);
  }
  if (row?.status === 'succeeded' || row?.status === 'plan_changed')
    return { success: true, message: successMessage(plan) };
  if (row?.status === 'requires_action')
    throw conflict('This payment is waiting for your bank to confirm it');
  if (row?.status === 'processing') throw conflict('This payment is still being processed');
  throw new HttpError(402, BILLING_MESSAGES.paymentFailed);
}

async function ensureCustomer(
  ctx: BillingContext,
  stripe: StripeGateway,
  client: ClientRow,
): Promise<string> {
  const customerId = await stripe.ensureCustomer({
    existingId: client.stripe_customer_id,
    email: client.email,
    name: [client.first_name, client.last_name].filter(Boolean).join(' ') || client.email,
    clientId: client.id,
  });
  if (customerId !== client.stripe_customer_id) {
    await updateClient(ctx.deps.db, client.id, { stripe_customer_id: customerId });
  }
  return customerId;
}

/** Another plan (or the same one again) on the card subscription the client already has. */
async function changeCardPlan(
  ctx: BillingContext,
  stripe: StripeGateway,
  live: SubscriptionRow,
  plan: PlanRow,
  customerId: string,
  paymentMethodId: string,
  key: string,
): Promise<void> {
  const subscriptionId = live.stripe_subscription_id!;
  const card = await stripe.replacePaymentMethod({ customerId, paymentMethodId, subscriptionId });
  let info =
    live.plan_id === plan.id
      ? await stripe.getSubscription(subscriptionId)
      : await stripe.changePrice(subscriptionId, await ensureProviderPrice(ctx.deps.db, stripe, plan), key);
  // Buying again means keeping it: a pending cancellation is withdrawn.
  if (info.cancelAtPeriodEnd) info = await stripe.setCancelAtPeriodEnd(subscriptionId, false);
  await updateSubscription(ctx.deps.db, live.id, {
    plan_id: plan.id,
    status: fromStripeStatus(info.status),
    ...cardColumns(card),
    current_period_end: info.currentPeriodEnd,
    cancel_at_period_end: info.cancelAtPeriodEnd ? 1 : 0,
    updated_at: ctx.deps.now(),
  });
}

const cardColumns = (card: CardDetails) => ({
  card_brand: card.brand,
  card_last4: card.last4,
  card_exp: card.exp,
});

/**
 * After Stripe.js confirmed a 3-D Secure payment: Stripe is asked whether the subscription is now
 * paid (the browser's word is not taken), and the card used is recorded for display.
 */
export async function confirmCardPayment(
  ctx: BillingContext,
  client: ClientRow,
  plan: PlanRow,
  paymentMethodId: string | undefined,
): Promise<StripePaymentResponse> {
  const stripe = requireStripe(ctx.gateways);
  const { db, now } = ctx.deps;
  const attempt = await findLatestPayment(db, client.id, 'stripe', plan.id, ['requires_action', 'succeeded']);
  if (!attempt?.provider_id) throw notFound('No payment is waiting for confirmation');
  // Stripe activates the subscription a moment after the payment succeeds (await-stripe.ts).
  const payment = await awaitStripe(ctx, stripe, attempt.provider_id, (p) => p.info.status !== 'incomplete');
  if (payment === 'pending')
    return { success: false, pending: true, message: BILLING_MESSAGES.activationPending };
  const { info } = payment;
  if (!isPaidStatus(info.status)) {
    throw new HttpError(402, 'The payment has not been confirmed. Please try again or use another card.');
  }
  await syncStripeSubscription(ctx, info);
  const row = await findByStripeSubscription(db, info.id);
  if (!row) {
    await activate(ctx, cardActivation(client.id, plan.id, info, null));
  }
  await markPaidByProviderId(db, 'stripe', info.id);
  if (paymentMethodId && client.stripe_customer_id) {
    // Only for the label ("Visa •••• 3184"): a failure here does not undo a paid subscription.
    try {
      const card = await stripe.attachPaymentMethod(client.stripe_customer_id, paymentMethodId);
      const current = await findByStripeSubscription(db, info.id);
      if (current) await updateSubscription(db, current.id, { ...cardColumns(card), updated_at: now() });
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not read the confirmed card');
    }
  }
  return { success: true, message: successMessage(plan) };
}

/**
 * Update Payment Method (DESIGN §6 [3]): the new card becomes the subscription's default. The
 * browser saves it through a SetupIntent (setUpNewCard), so the bank authenticates it once for
 * off-session renewals; the intent must have succeeded for this client's customer. A bare
 * payment method id is still attached as before.
 */
export async function replaceCard(
  ctx: BillingContext,
  client: ClientRow,
  card: { paymentMethodId: string } | { setupIntentId: string },
): Promise<string> {
  const stripe = requireStripe(ctx.gateways);
  const { db, now } = ctx.deps;
  const live = await cardSubscription(ctx, client);
  const customerId = await ensureCustomer(ctx, stripe, client);
  const subscriptionId = live.stripe_subscription_id;
  let details: CardDetails;
  if ('setupIntentId' in card) {
    const intent = await stripe.getSetupIntent(card.setupIntentId);
    // Another customer's intent is no business of this client's: it reads as not found.
    if (intent.customerId !== customerId) throw notFound('Setup intent not found');
    if (intent.status !== 'succeeded' || !intent.paymentMethodId)
      throw new HttpError(402, BILLING_MESSAGES.setupIncomplete);
    details = await stripe.setDefaultCard({
      customerId,
      paymentMethodId: intent.paymentMethodId,
      subscriptionId,
    });
  } else {
    details = await stripe.replacePaymentMethod({
      customerId,
      paymentMethodId: card.paymentMethodId,
      subscriptionId,
    });
  }
  await updateSubscription(db, live.id, { ...cardColumns(details), updated_at: now() });
  return cardLabel(details.brand, details.last4) ?? 'Card';
}

/** A SetupIntent for the client's Stripe customer: Stripe.js confirms it with the new card. */
export async function setUpNewCard(ctx: BillingContext, client: ClientRow): Promise<string> {
  const stripe = requireStripe(ctx.gateways);
  await cardSubscription(ctx, client);
  const customerId = await ensureCustomer(ctx, stripe, client);
  const intent = await stripe.createSetupIntent({ customerId, clientId: client.id });
  return intent.clientSecret;
}

/** The client's live subscription, which must be paid by card to take a new one. */
async function cardSubscription(
  ctx: BillingContext,
  client: ClientRow,
): Promise<SubscriptionRow & { stripe_subscription_id: string }> {
  const live = await findSubscription(ctx.deps.db, client.id);
  if (!live || isEnded(live, ctx.deps.now())) throw notFound(BILLING_MESSAGES.noSubscription);
  if (live.provider !== 'card' || !live.stripe_subscription_id)
    throw new HttpError(400, BILLING_MESSAGES.paymentMethodNeedsCard);
  // The check above proves stripe_subscription_id set; narrowing a field keeps the row's type
  return live as SubscriptionRow & { stripe_subscription_id: string };
}
