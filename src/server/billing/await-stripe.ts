/**
 * Waiting for Stripe after a 3-D Secure confirmation. The bank's "yes" makes the PaymentIntent
 * succeed at once, but Stripe pays the invoice, activates the subscription or applies a pending
 * plan change a moment later. Asked too early, Stripe still says "incomplete", and a charged
 * customer would be told the payment failed. So: re-read within a bound while the payment is
 * going through; past the bound the answer is "pending" and Stripe's webhook finishes the job.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { StripeGateway, SubscriptionPayment } from '../providers/payments/stripe';
import type { BillingContext } from './billing-context';

/** PaymentIntent states in which the money is taken or being taken. */
export const PAID_OR_PAYING = new Set(['succeeded', 'processing']);
const POLL_MS = 250;

export async function awaitStripe(
  ctx: BillingContext,
  stripe: StripeGateway,
  subscriptionId: string,
  settled: (payment: SubscriptionPayment) => boolean,
): Promise<SubscriptionPayment | 'pending'> {
  const deadline = Date.now() + ctx.deps.config.stripe.confirmWaitMs;
  for (;;) {
    const payment = await stripe.getSubscriptionPayment(subscriptionId);
    // Settled, or the payment did not go through: either way the caller decides now.
    if (settled(payment) || !PAID_OR_PAYING.has(payment.paymentStatus ?? '')) return payment;
    if (Date.now() >= deadline) return 'pending';
    await sleep(POLL_MS);
  }
}
