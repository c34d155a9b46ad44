/**
 * A payment provider's webhook delivery, received the same way for Stripe and PayPal (DESIGN §8):
 * its gateway verifies and reads it into a provider-neutral event (providers/payments/types.ts),
 * a replayed event id changes nothing, the subscription it names is re-read from the provider and
 * applied (so late or out-of-order events still leave the row true), and then what it says about
 * a charge is noted. The event is recorded as handled last: a delivery that failed half-way is
 * retried by the provider, not lost.
 */
import { badRequest, serviceUnavailable } from '../http/errors';
import { isPaymentError } from '../providers/payments/errors';
import type { PaymentProvider, WebhookHeaders } from '../providers/payments/types';
import { syncStripeSubscription } from './activation';
import type { BillingContext } from './billing-context';
import { requirePaypal, requireStripe } from './gateways';
import { noteCharge } from './payment-action';
import { syncPaypalSubscription } from './paypal-checkout';
import { isEventHandled, recordEventHandled } from './provider-events';

export interface WebhookReceipt {
  received: true;
  /** The event id was handled before: nothing was done again. */
  duplicate?: true;
}

/** How each provider's subscription is applied to our row: the one step that differs. */
const RESYNC: Record<PaymentProvider, (ctx: BillingContext, subscriptionId: string) => Promise<unknown>> = {
  stripe: async (ctx, id) =>
    syncStripeSubscription(ctx, await requireStripe(ctx.gateways).getSubscription(id)),
  paypal: async (ctx, id) =>
    syncPaypalSubscription(ctx, await requirePaypal(ctx.gateways).getSubscription(id)),
};

/** What the provider's name is when its gateway is not even configured. */
const PROVIDER_NAMES: Record<PaymentProvider, string> = { stripe: 'Stripe', paypal: 'PayPal' };

export async function receivePaymentWebhook(
  ctx: BillingContext,
  provider: PaymentProvider,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<WebhookReceipt> {
  const gateway = ctx.gateways[provider];
  if (!gateway?.webhooksConfigured)
    throw serviceUnavailable(`${PROVIDER_NAMES[provider]} webhooks are not configured`);
  const parsed = await gateway.parseWebhook(rawBody, headers);
  if (parsed.kind === 'unauthorized') {
    ctx.log.warn({ provider }, 'payment webhook refused: not signed by the provider');
    throw badRequest(parsed.message);
  }
  if (parsed.kind === 'invalid') throw badRequest(parsed.message);
  const { event } = parsed;
  const { db, now } = ctx.deps;
  if (await isEventHandled(db, provider, event.id)) return { received: true, duplicate: true };
  if (event.subscriptionId) {
    try {
      await RESYNC[provider](ctx, event.subscriptionId);
    } catch (error) {
      // A subscription the provider does not know is nothing of ours; any other failure is retried.
      if (!(isPaymentError(error) && error.kind === 'not_found')) throw error;
    }
  }
  await noteCharge(ctx, provider, event);
  await recordEventHandled(db, provider, event.id, now());
  return { received: true };
}
