/**
 * Idempotency keys of purchases. Same client, plan, payment method and subscription state → same
 * key: a double click is one purchase. Any change to the client's subscription (a purchase, a plan
 * change, a cancel) changes the key, so a later purchase is never taken for a repeat of an old one.
 */
import { createHash } from 'node:crypto';
import type { SubscriptionRow } from '../db/schema';

/** The key of a card purchase. */
export function checkoutKey(
  clientId: string,
  planId: string,
  paymentMethodId: string,
  current: SubscriptionRow | undefined,
): string {
  return `checkout-card-${digest([clientId, planId, paymentMethodId, ...subscriptionState(current)])}`;
}

function subscriptionState(current: SubscriptionRow | undefined): string[] {
  if (!current) return ['-'];
  return [
    current.stripe_subscription_id ?? current.paypal_subscription_id ?? current.id,
    String(current.updated_at),
  ];
}

function digest(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
}

/** The PayPal-Request-Id of a wallet purchase: coming back from PayPal and trying again reuses it. */
export function paypalRequestId(
  clientId: string,
  planId: string,
  current: SubscriptionRow | undefined,
): string {
  return `checkout-paypal-${digest([clientId, planId, ...subscriptionState(current)])}`;
}
