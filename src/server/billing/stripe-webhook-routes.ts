/**
 * POST /api/webhooks/stripe (DESIGN §8): the signature is checked on the raw body, replayed event
 * ids are ignored, and every subscription or invoice event re-reads the subscription from Stripe
 * and applies it, so events arriving late or out of order still leave the row true.
 */
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { serviceUnavailable } from '../errors';
import { isPaymentError } from '../providers/payments/errors';
import { syncStripeSubscription } from './activation';
import { isEventHandled, recordEventHandled } from './provider-events';
import { keepRawBody, rawBodyOf } from '../raw-body';
import type { BillingContext, BillingPluginOptions } from './billing-context';
import { type InvoiceEvent, noteActionRequired, noteInvoicePaid, notePaymentFailed } from './payment-action';

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);
const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed', 'invoice.payment_action_required']);

export default async function stripeWebhookRoutes(
  app: FastifyInstance,
  { ctx }: BillingPluginOptions,
): Promise<void> {
  keepRawBody(app);
  const { db, now } = app.deps;

  app.post('/api/webhooks/stripe', async (request) => {
    const stripe = ctx.gateways.stripe;
    if (!stripe || !ctx.gateways.stripeWebhooks)
      throw serviceUnavailable('Stripe webhooks are not configured');
    const event: Stripe.Event = stripe.constructEvent(
      rawBodyOf(request.body),
      headerValue(request.headers['stripe-signature']),
    );
    if (await isEventHandled(db, 'stripe', event.id)) return { received: true, duplicate: true };

    const subscriptionId = subscriptionOf(event);
    if (subscriptionId) {
      try {
        await syncStripeSubscription(ctx, await stripe.getSubscription(subscriptionId));
      } catch (error) {
        // A subscription Stripe does not know is nothing of ours; any other failure is retried by Stripe.
        if (!(isPaymentError(error) && error.kind === 'not_found')) throw error;
      }
    }
    const invoice = subscriptionId ? invoiceOf(event, subscriptionId) : null;
    if (invoice) await INVOICE_HANDLERS[event.type]?.(ctx, invoice);
    await recordEventHandled(db, 'stripe', event.id, now());
    return { received: true };
  });
}

/** What each invoice event means for a renewal waiting for the client (payment-action.ts). */
const INVOICE_HANDLERS: Record<string, (ctx: BillingContext, invoice: InvoiceEvent) => Promise<void>> = {
  'invoice.payment_action_required': noteActionRequired,
  'invoice.paid': noteInvoicePaid,
  'invoice.payment_failed': notePaymentFailed,
};

function invoiceOf(event: Stripe.Event, subscriptionId: string): InvoiceEvent | null {
  if (!INVOICE_EVENTS.has(event.type)) return null;
  const object = event.data.object as unknown as Record<string, unknown>;
  if (typeof object.id !== 'string') return null;
  return {
    id: object.id,
    billingReason: typeof object.billing_reason === 'string' ? object.billing_reason : null,
    subscriptionId,
    amountDue: typeof object.amount_due === 'number' ? object.amount_due : 0,
    currency: typeof object.currency === 'string' ? object.currency : 'usd',
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The subscription an event is about, for the event types we act on. */
function subscriptionOf(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (SUBSCRIPTION_EVENTS.has(event.type)) return typeof object.id === 'string' ? object.id : null;
  if (!INVOICE_EVENTS.has(event.type)) return null;
  // Current API versions name it under parent.subscription_details; older ones at the top level.
  const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
  const fromParent = parent?.subscription_details?.subscription;
  const ref = fromParent ?? object.subscription;
  if (typeof ref === 'string') return ref;
  if (ref && typeof ref === 'object' && typeof (ref as { id?: unknown }).id === 'string')
    return (ref as { id: string }).id;
  return null;
}
