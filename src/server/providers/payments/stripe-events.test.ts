/**
 * Stripe deliveries read into provider-neutral events (parseWebhook: constructEvent, then
 * stripe-events.ts), from bodies in Stripe's wire format signed as Stripe signs them. No network.
 */
import { describe, expect, it } from 'vitest';
import { stripeSignatureHeader } from '../../../../sim/stripe';
import { createStripeGateway } from './stripe';

const WEBHOOK_SECRET = 'whsec_events_0123456789';
const gateway = createStripeGateway({ secretKey: 'sk_test_events', webhookSecret: WEBHOOK_SECRET });

function delivery(type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const raw = JSON.stringify({ id: 'evt_1', object: 'event', type, data: { object } }, null, 2);
  return gateway.parseWebhook(Buffer.from(raw), { 'stripe-signature': stripeSignatureHeader(raw, secret) });
}

const renewal = {
  id: 'in_1',
  object: 'invoice',
  billing_reason: 'subscription_cycle',
  amount_due: 4900,
  currency: 'usd',
  parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
};

describe('Stripe events in our terms', () => {
  it('names the subscription of a subscription event', async () => {
    for (const type of ['customer.subscription.created', 'customer.subscription.deleted']) {
      expect(await delivery(type, { id: 'sub_1', object: 'subscription' })).toEqual({
        kind: 'event',
        event: { id: 'evt_1', subscriptionId: 'sub_1', charge: null },
      });
    }
  });

  it('reads an invoice’s charge and its subscription, where current and older API versions put it', async () => {
    expect(await delivery('invoice.payment_action_required', renewal)).toEqual({
      kind: 'event',
      event: {
        id: 'evt_1',
        subscriptionId: 'sub_1',
        charge: { kind: 'action_required', invoiceId: 'in_1', renewal: true, amountDueCents: 4900 },
      },
    });
    const { parent: _, ...older } = renewal;
    expect(
      await delivery('invoice.payment_failed', {
        ...older,
        billing_reason: 'subscription_create',
        subscription: { id: 'sub_2', object: 'subscription' },
      }),
    ).toMatchObject({
      event: {
        subscriptionId: 'sub_2',
        charge: { kind: 'failed', invoiceId: 'in_1', renewal: false, amountDueCents: 4900 },
      },
    });
    expect(await delivery('invoice.paid', renewal)).toMatchObject({
      event: { subscriptionId: 'sub_1', charge: { kind: 'paid', invoiceId: 'in_1' } },
    });
  });

  it('says nothing of an event it does not act on, or of an invoice without a subscription', async () => {
    const none = { kind: 'event', event: { id: 'evt_1', subscriptionId: null, charge: null } };
    expect(await delivery('customer.created', { id: 'cus_1', object: 'customer' })).toEqual(none);
    expect(await delivery('invoice.paid', { ...renewal, parent: null })).toEqual(none);
    // An invoice without an id still has its subscription re-read.
    expect(await delivery('invoice.paid', { ...renewal, id: undefined })).toMatchObject({
      event: { subscriptionId: 'sub_1', charge: null },
    });
  });

  it('refuses a delivery not signed with our secret, or not signed at all', async () => {
    expect(await delivery('invoice.paid', renewal, 'whsec_someone_else')).toEqual({
      kind: 'unauthorized',
      message: 'Invalid webhook signature.',
    });
    expect(await gateway.parseWebhook(Buffer.from('{}'), {})).toMatchObject({ kind: 'unauthorized' });
  });
});
