/**
 * The provider-neutral face of a payment gateway (Stripe for cards, PayPal for the wallet). What
 * billing/ does the same way for both speaks only this: a plan's recurring price at the provider,
 * ending a subscription, and reading a webhook delivery. Each provider's wire format, signature
 * scheme and event vocabulary stay in its adapter (stripe.ts, paypal.ts and their event readers),
 * as the voice adapters keep theirs (providers/voice/types.ts). The flows only one provider has
 * (3-D Secure, plan changes with proration, PayPal's approval link) stay on each gateway's own
 * interface, which extends this one.
 */
import type { PaymentProvider } from './errors';

export type { PaymentProvider } from './errors';

/** Node's IncomingHttpHeaders (lower-case names) or a fetch Headers. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

/** One header of a delivery, by its lower-case name; the first when it came more than once. */
export function headerValue(headers: WebhookHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key ? headers[key] : undefined;
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** Our plan, as a provider needs it to hold a monthly price for it. */
export interface PlanPriceRequest {
  /** Our plan id (kept in the provider's metadata or request ids, so a lost id is found again). */
  planId: string;
  name: string;
  monthlyPriceCents: number;
  /** The provider's price or plan id we stored for this plan last time; null when none. */
  existingId: string | null;
}

/** What a delivery says about a charge of the subscription it names. */
export type ChargeNotice =
  /** An invoice was paid: a renewal waiting for the client is no longer waiting. */
  | { kind: 'paid'; invoiceId: string }
  /** The bank wants the customer to authenticate the charge of this invoice. */
  | { kind: 'action_required'; invoiceId: string; renewal: boolean; amountDueCents: number }
  /** A charge was refused. PayPal names no invoice; a renewal is the only charge it reports. */
  | { kind: 'failed'; invoiceId: string | null; renewal: boolean; amountDueCents: number | null };

/** A verified webhook event in our terms: billing/ decides on this alone. */
export interface PaymentEvent {
  /** The provider's event id: a replayed delivery carries the same one. */
  id: string;
  /**
   * The provider's subscription the event is about, or null when the event is not about one we
   * act on. Only its id is taken from the event: billing/ re-reads the subscription, so events
   * arriving late or out of order still leave our row true.
   */
  subscriptionId: string | null;
  /** What the event says about a charge of that subscription; null when it says nothing. */
  charge: ChargeNotice | null;
}

/** A webhook delivery as its gateway reads it. */
export type PaymentWebhookParse =
  | { kind: 'event'; event: PaymentEvent }
  /** Not signed by the provider for our endpoint (forged, altered, unsigned or another account's). */
  | { kind: 'unauthorized'; message: string }
  /** Signed, but not an event we can read. */
  | { kind: 'invalid'; message: string };

export interface PaymentGateway {
  readonly provider: PaymentProvider;
  /** Whether deliveries can be verified: Stripe needs the endpoint's signing secret, PayPal our webhook id. */
  readonly webhooksConfigured: boolean;
  /**
   * The provider's id of a monthly price for the plan: `existingId` when it still matches the
   * amount, else one found again or made now. Repeating it is harmless.
   */
  ensurePlanPrice(plan: PlanPriceRequest): Promise<string>;
  /** Ends the subscription at the provider now, so it bills no more; one already ended is left alone. */
  endSubscription(id: string, reason: string): Promise<void>;
  /**
   * Verifies a delivery over its raw bytes (Stripe locally, PayPal by asking PayPal) and reads it.
   * A provider that cannot be asked throws PaymentError, so the delivery is retried.
   */
  parseWebhook(rawBody: Buffer, headers: WebhookHeaders): Promise<PaymentWebhookParse>;
}
