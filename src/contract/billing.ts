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
  activationPending:
    'Your bank confirmed the payment. Stripe is activating your subscription; this page updates when it is active.',
  planChangePending:
    'Your bank confirmed the payment. Stripe is applying your new plan; it shows here in a moment.',
  confirmationUnderway:
    'Your previous payment is being confirmed by Stripe. Your subscription will be active in a moment; nothing else was charged.',
  paypalUnavailable: 'PayPal could not be reached. Please try again in a minute.',
  stripeUnavailable: 'The card processor could not be reached. Please try again in a minute.',
  paymentMethodNeedsCard:
    'Your subscription is paid with PayPal; change the payment method by subscribing again with a card',
  planChangeNeedsCard:
    'Only a subscription paid by card can change plan here; choose the plan and subscribe at checkout',
  samePlan: 'This is already your plan',
  planChangeExpired: 'This price was computed too long ago; please review the plan change again',
  planChangeUnderWay: 'This plan change is still being processed',
  noPendingChange: 'No plan change is waiting for confirmation',
  resumeNeedsCard:
    'Your PayPal subscription was cancelled at PayPal and cannot be resumed; subscribe again to keep your plan',
  noPaymentAction: 'No payment is waiting for your confirmation',
  paymentActionFailed: 'Your bank did not confirm the payment. Please try again or update your card.',
  setupIncomplete: 'The new card was not confirmed with your bank. Please try again.',
  planChanged: (planName: string) => `Your plan is now ${planName}`,
  resumed: 'Your subscription will renew automatically',
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
  status: z.string() satisfies z.ZodType<SubscriptionStatus>,
  /** "Visa •••• 4242", "PayPal", or null while nothing is on file. */
  paymentMethod: z.string().nullable(),
  /** ISO 8601; the next billing date (or the end of access once cancellation is pending). */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  minutesUsedThisMonth: z.number(),
  plan: Plan,
  /**
   * A renewal waits for the client to confirm it with the bank (3-D Secure): GET
   * /api/client/payment-action gives the secret Stripe.js completes it with.
   */
  actionRequired: z.boolean(),
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

/**
 * Body of PUT /api/client/payment-method: a new card replaces the subscription's default one.
 * The browser saves it through a SetupIntent (POST /api/client/payment-method/setup-intent, then
 * Stripe.js confirmCardSetup) and sends its id, so renewals can be charged off-session; a bare
 * paymentMethodId is still taken, attached as before.
 */
export const PaymentMethodBody = z.union([
  z.object({ paymentMethodId: StripePaymentBody.shape.paymentMethodId }).strict(),
  z
    .object({
      setupIntentId: z
        .string()
        .trim()
        .max(255)
        .regex(/^seti_[A-Za-z0-9_]+$/, 'Invalid setup intent'),
    })
    .strict(),
]);
export type PaymentMethodBody = z.infer<typeof PaymentMethodBody>;

/** 3-D Secure: confirm `clientSecret` with Stripe.js, then ask the server again. */
const RequiresAction = z.object({
  success: z.literal(false),
  requiresAction: z.literal(true),
  clientSecret: z.string(),
  message: z.string(),
});

export const StripePaymentResponse = z.union([
  z.object({ success: z.literal(true), message: z.string() }),
  RequiresAction,
  /**
   * After 3-D Secure: the bank confirmed, Stripe has not activated the subscription yet. The
   * invoice.paid webhook activates it; the browser shows the subscription tab, which waits for it.
   */
  z.object({ success: z.literal(false), pending: z.literal(true), message: z.string() }),
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

/** POST /api/client/payment-method/setup-intent: confirm it with Stripe.js (confirmCardSetup). */
export const SetupIntentResponse = z.object({ clientSecret: z.string() });
export type SetupIntentResponse = z.infer<typeof SetupIntentResponse>;

/** GET /api/client/payment-action: the renewal waiting for 3-D Secure; amountDue in dollars. */
export const PaymentAction = z.object({
  clientSecret: z.string(),
  amountDue: z.number(),
  currency: z.string(),
});
export type PaymentAction = z.infer<typeof PaymentAction>;

export const PaymentMethodResponse = z.object({ success: z.literal(true), paymentMethod: z.string() });
export type PaymentMethodResponse = z.infer<typeof PaymentMethodResponse>;

/** How long a previewed price may be used for the change itself (its proration date's age). */
export const PLAN_CHANGE_PREVIEW_TTL_SECONDS = 30 * 60;

/** GET /api/client/subscription/change-preview?planId=… */
export const ChangePreviewQuery = z.object({ planId });
export type ChangePreviewQuery = z.infer<typeof ChangePreviewQuery>;

/**
 * What changing to another plan costs now, as Stripe computes it (invoice preview, prorations
 * billed at once): unused time on the current plan credited, the rest of the period on the new
 * plan charged. Amounts in dollars.
 */
export const PlanChangePreview = z.object({
  planId: z.string(),
  currentPlan: Plan,
  newPlan: Plan,
  /** Charged to the saved card when the change is confirmed; 0 when a credit covers it. */
  amountDueNow: z.number(),
  /** The prorations' net: negative when the change leaves a credit. */
  prorationTotal: z.number(),
  /** Account credit after the change (used on the next invoices), ≥ 0. */
  creditAfter: z.number(),
  currency: z.string(),
  /** Epoch seconds: send it back with the change so the charge is this one. */
  prorationDate: z.number().int(),
  /** ISO 8601: when the new monthly price is charged next (null once a cancellation is pending). */
  nextBillingDate: z.string().nullable(),
  /** The end of the current period (ISO 8601). */
  currentPeriodEnd: z.string().nullable(),
  /** "Visa •••• 4242": the saved card that pays. */
  paymentMethod: z.string(),
  /** A pending cancellation stays pending: auto-renewal stays off. */
  cancelAtPeriodEnd: z.boolean(),
});
export type PlanChangePreview = z.infer<typeof PlanChangePreview>;

/** Body of POST /api/client/subscription/change-plan. */
export const ChangePlanBody = z.object({
  planId,
  prorationDate: z
    .number({ invalid_type_error: 'Expected number', required_error: 'Required' })
    .int('Expected a whole number of seconds')
    .positive(),
});
export type ChangePlanBody = z.infer<typeof ChangePlanBody>;

/** Body of POST /api/client/subscription/confirm-change, after Stripe.js confirmed 3-D Secure. */
export const ConfirmPlanChangeBody = z.object({ planId });
export type ConfirmPlanChangeBody = z.infer<typeof ConfirmPlanChangeBody>;

export const ChangePlanResponse = z.union([
  z.object({
    success: z.literal(true),
    message: z.string(),
    /** What the card was charged, in dollars (0 when a credit covered it). */
    amountCharged: z.number(),
    subscription: Subscription,
  }),
  RequiresAction,
  /** After 3-D Secure: confirmed by the bank, not applied by Stripe yet (its webhook applies it). */
  z.object({ success: z.literal(false), pending: z.literal(true), message: z.string() }),
]);
export type ChangePlanResponse = z.infer<typeof ChangePlanResponse>;

export const ResumeSubscriptionResponse = CancelSubscriptionResponse;
export type ResumeSubscriptionResponse = z.infer<typeof ResumeSubscriptionResponse>;

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
