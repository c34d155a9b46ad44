/**
 * Stripe's webhook events in our terms (types.ts: PaymentEvent). The event types are Stripe's own
 * (checked against the SDK's Stripe.Event.Type); the fields read from the event's object are
 * validated here, and each one missing or of another type reads as "not said", never as a throw:
 * the subscription is re-read from Stripe anyway.
 */
import type Stripe from 'stripe';
import { z } from 'zod';
import type { ChargeNotice, PaymentEvent } from './types';

/** Events about a subscription itself: its id is the object's. */
const SUBSCRIPTION_EVENTS: ReadonlySet<string> = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] satisfies Stripe.Event.Type[]);

/** Invoice events, each with what it says about the charge. */
const INVOICE_CHARGES = {
  'invoice.paid': 'paid',
  'invoice.payment_action_required': 'action_required',
  'invoice.payment_failed': 'failed',
} as const satisfies Partial<Record<Stripe.Event.Type, ChargeNotice['kind']>>;

/** Renewals are the invoices Stripe charges off-session, so only they wait for the client by e-mail. */
const RENEWAL: Stripe.Invoice.BillingReason = 'subscription_cycle';

/** An expandable reference: an id, or the expanded object carrying it. */
const StripeRef = z
  .union([z.string(), z.object({ id: z.string() }).transform((object) => object.id)])
  .nullish()
  .catch(null);

const SubscriptionObject = z.object({ id: z.string() });

const InvoiceObject = z.object({
  id: z.string().nullish().catch(null),
  billing_reason: z.string().nullish().catch(null),
  amount_due: z.number().catch(0),
  /** Current API versions (basil on) name the subscription here… */
  parent: z
    .object({ subscription_details: z.object({ subscription: StripeRef }).nullish().catch(null) })
    .nullish()
    .catch(null),
  /** …older ones at the top level. */
  subscription: StripeRef,
});

const isChargeEvent = (type: string): type is keyof typeof INVOICE_CHARGES =>
  Object.hasOwn(INVOICE_CHARGES, type);

/** A verified event (constructEvent) in our terms. */
export function readStripeEvent(event: Stripe.Event): PaymentEvent {
  const none: PaymentEvent = { id: event.id, subscriptionId: null, charge: null };
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = SubscriptionObject.safeParse(event.data.object);
    return subscription.success ? { ...none, subscriptionId: subscription.data.id } : none;
  }
  if (!isChargeEvent(event.type)) return none;
  const parsed = InvoiceObject.safeParse(event.data.object);
  if (!parsed.success) return none;
  const invoice = parsed.data;
  const subscriptionId = invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
  // An invoice that belongs to no subscription (a one-off) is none of billing's business.
  if (!subscriptionId) return none;
  return { ...none, subscriptionId, charge: invoice.id ? charge(event.type, invoice.id, invoice) : null };
}

function charge(
  type: keyof typeof INVOICE_CHARGES,
  invoiceId: string,
  invoice: z.output<typeof InvoiceObject>,
): ChargeNotice {
  const kind = INVOICE_CHARGES[type];
  if (kind === 'paid') return { kind, invoiceId };
  return { kind, invoiceId, renewal: invoice.billing_reason === RENEWAL, amountDueCents: invoice.amount_due };
}
