/**
 * PayPal's webhook events in our terms (types.ts: PaymentEvent), read from a delivery that
 * verifyWebhook accepted. PayPal's envelope is {id, event_type, resource_type, resource, …}: a
 * subscription event's resource is the subscription (BILLING.SUBSCRIPTION.*), a sale's names the
 * subscription it was charged for as billing_agreement_id (PAYMENT.SALE.*).
 */
import { z } from 'zod';
import type { PaymentEvent } from './types';

const Envelope = z.object({ id: z.string(), event_type: z.string(), resource: z.unknown() });
const SubscriptionResource = z.object({ id: z.string() });
const SaleResource = z.object({ billing_agreement_id: z.string() });

/** The one charge PayPal reports: a renewal its funding source refused (PayPal retries it). */
const PAYMENT_FAILED = 'BILLING.SUBSCRIPTION.PAYMENT.FAILED';

/** null when the body is not a PayPal event (no string id or event_type). */
export function readPaypalEvent(rawBody: Buffer | string): PaymentEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const envelope = Envelope.safeParse(body);
  if (!envelope.success) return null;
  const { id, event_type: type, resource } = envelope.data;
  const subscriptionId = subscriptionOf(type, resource);
  return {
    id,
    subscriptionId,
    // PayPal names neither an invoice nor (in our reading) the amount: the alert says "your renewal".
    charge:
      type === PAYMENT_FAILED && subscriptionId
        ? { kind: 'failed', invoiceId: null, renewal: true, amountDueCents: null }
        : null,
  };
}

function subscriptionOf(type: string, resource: unknown): string | null {
  if (type.startsWith('BILLING.SUBSCRIPTION.')) {
    const subscription = SubscriptionResource.safeParse(resource);
    return subscription.success ? subscription.data.id : null;
  }
  if (type.startsWith('PAYMENT.SALE.')) {
    const sale = SaleResource.safeParse(resource);
    return sale.success ? sale.data.billing_agreement_id : null;
  }
  return null;
}
