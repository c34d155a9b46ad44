/**
 * Plans, subscriptions and payments (SPEC §3, §4, §7, §9; DESIGN §6 [12], §8): the shapes of
 * every billing request and answer, the texts the server and the browser share, and the usage rule.
 */
import { z } from 'zod';

/** SPEC §9: at most this many plans appear on the settings page. */
export const MAX_PLANS_SHOWN = 6;
/** SPEC §5/§9: the usage warning shows above this percentage. */
export const USAGE_WARNING_PERCENT = 80;

export const BILLING_MESSAGES = {
  cardNotConfigured: 'Card payments are not configured',
  paypalNotConfigured: 'PayPal payments are not configured',
  planNotFound: 'Plan not found',
  noSubscription: 'No active subscription',
  amountMismatch: 'The amount does not match the price of this plan',
  alreadySubscribed: 'You are already subscribed to this plan',
  paymentFailed: 'Payment processing failed',
  requiresAction: 'Your bank needs to confirm this payment',
  paypalUnavailable: 'PayPal could not be reached. Please try again in a minute.',
  stripeUnavailable: 'The card processor could not be reached. Please try again in a minute.',
  paymentMethodNeedsCard:
    'Your subscription is paid with PayPal; change the payment method by subscribing again with a card',
} as const;

/** A plan as the API shows it: monthlyPrice in dollars. */
export const Plan = z.object({
  id: z.string(),
  name: z.string(),
  monthlyPrice: z.number(),
  minutesIncluded: z.number(),
});
export type Plan = z.infer<typeof Plan>;
export const Plans = z.array(Plan);

/** Stored statuses: active, incomplete, past_due, canceled, pending (PayPal awaiting approval). */
export type SubscriptionStatus = 'active' | 'incomplete' | 'past_due' | 'canceled' | 'pending' | string;

/** GET /api/client/subscription (null when the client has none). */
export const Subscription = z.object({
  planId: z.string(),
  status: z.string() as z.ZodType<SubscriptionStatus>,
  /** "Visa •••• 4242", "PayPal", or null while nothing is on file. */
  paymentMethod: z.string().nullable(),
  /** ISO 8601; the next billing date (or the end of access once cancellation is pending). */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  minutesUsedThisMonth: z.number(),
  plan: Plan,
});
export type Subscription = z.infer<typeof Subscription>;

export const CancelSubscriptionResponse = z.object({ success: z.literal(true), subscription: Subscription });
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponse>;

/** GET /api/billing/config: what the checkout page needs to offer each way of paying. */
export const BillingConfig = z.object({
  /** Stripe's publishable key; null when card payments are not configured. */
  stripePublishableKey: z.string().nullable(),
  paypalEnabled: z.boolean(),
  /** Set only when Stripe.js must come from elsewhere than js.stripe.com (the offline stand-in). */
  stripeJsUrl: z.string().nullable(),
});
export type BillingConfig = z.infer<typeof BillingConfig>;

const planId = z.string().trim().min(1, 'Required').max(100);

/** Body of POST /api/client/process-stripe-payment. */
export const StripePaymentBody = z.object({
  planId,
  paymentMethodId: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(255)
    .regex(/^pm_[A-Za-z0-9_]+$/, 'Invalid payment method'),
});
export type StripePaymentBody = z.infer<typeof StripePaymentBody>;

/** Body of POST /api/client/confirm-stripe-payment, after Stripe.js confirmed a 3-D Secure payment. */
export const ConfirmStripePaymentBody = z.object({
  planId,
  /** The card Stripe.js confirmed, for the "Visa •••• 3184" label. */
  paymentMethodId: z
    .string()
    .trim()
    .max(255)
    .regex(/^pm_[A-Za-z0-9_]+$/, 'Invalid payment method')
    .optional(),
});
export type ConfirmStripePaymentBody = z.infer<typeof ConfirmStripePaymentBody>;

/** Body of PUT /api/client/payment-method: a new card replaces the subscription's default one. */
export const PaymentMethodBody = z.object({ paymentMethodId: StripePaymentBody.shape.paymentMethodId });
export type PaymentMethodBody = z.infer<typeof PaymentMethodBody>;

export const StripePaymentResponse = z.union([
  z.object({ success: z.literal(true), message: z.string() }),
  z.object({
    success: z.literal(false),
    requiresAction: z.literal(true),
    clientSecret: z.string(),
    message: z.string(),
  }),
]);
export type StripePaymentResponse = z.infer<typeof StripePaymentResponse>;

/** Body of POST /api/client/process-paypal-payment; amount in dollars, checked against the plan. */
export const PaypalPaymentBody = z.object({
  planId,
  amount: z.coerce.number({ invalid_type_error: 'Expected number' }).finite().nonnegative(),
});
export type PaypalPaymentBody = z.infer<typeof PaypalPaymentBody>;

export const PaypalPaymentResponse = z.object({
  success: z.literal(true),
  paypalUrl: z.string(),
  message: z.string(),
});
export type PaypalPaymentResponse = z.infer<typeof PaypalPaymentResponse>;

export const PaymentMethodResponse = z.object({ success: z.literal(true), paymentMethod: z.string() });
export type PaymentMethodResponse = z.infer<typeof PaymentMethodResponse>;

/** SPEC §5: minutes used over minutes included, capped at 100. */
export function usagePercent(minutesUsed: number, minutesIncluded: number): number {
  if (minutesIncluded <= 0) return minutesUsed > 0 ? 100 : 0;
  return Math.min(100, (minutesUsed / minutesIncluded) * 100);
}

export function isUsageWarning(minutesUsed: number, minutesIncluded: number): boolean {
  return usagePercent(minutesUsed, minutesIncluded) > USAGE_WARNING_PERCENT;
}

/** "Visa •••• 4242": how a stored card reads. */
export function cardLabel(brand: string | null, last4: string | null): string | null {
  if (!last4) return null;
  const name = CARD_BRANDS[brand ?? ''] ?? (brand ? brand[0].toUpperCase() + brand.slice(1) : 'Card');
  return `${name} •••• ${last4}`;
}

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The success toast's text (SPEC §8 "Checkout"). */
export const subscribedMessage = (planName: string) => `Successfully subscribed to ${planName}!`;
