/**
 * PayPal deliveries read into provider-neutral events (paypal-events.ts), from bodies in PayPal's
 * webhook envelope as the stand-in (sim/paypal) sends them. No network.
 */
import { describe, expect, it } from 'vitest';
import { createPaypalGateway } from './paypal';
import { readPaypalEvent } from './paypal-events';

const envelope = (event_type: string, resource: unknown) =>
  JSON.stringify({ id: 'WH-1', event_version: '1.0', resource_type: 'subscription', event_type, resource });

describe('PayPal events in our terms', () => {
  it('names the subscription of a subscription event and of a sale', () => {
    expect(
      readPaypalEvent(envelope('BILLING.SUBSCRIPTION.ACTIVATED', { id: 'I-1', status: 'ACTIVE' })),
    ).toEqual({ id: 'WH-1', subscriptionId: 'I-1', charge: null });
    expect(
      readPaypalEvent(
        Buffer.from(envelope('PAYMENT.SALE.COMPLETED', { id: 'S-1', billing_agreement_id: 'I-2' })),
      ),
    ).toEqual({ id: 'WH-1', subscriptionId: 'I-2', charge: null });
  });

  it('reads a failed renewal as a failed charge without an invoice or amount', () => {
    expect(readPaypalEvent(envelope('BILLING.SUBSCRIPTION.PAYMENT.FAILED', { id: 'I-1' }))).toEqual({
      id: 'WH-1',
      subscriptionId: 'I-1',
      charge: { kind: 'failed', invoiceId: null, renewal: true, amountDueCents: null },
    });
  });

  it('says nothing of other events, and refuses what is not a PayPal event', () => {
    expect(readPaypalEvent(envelope('CHECKOUT.ORDER.APPROVED', { id: 'O-1' }))).toEqual({
      id: 'WH-1',
      subscriptionId: null,
      charge: null,
    });
    expect(readPaypalEvent(envelope('BILLING.SUBSCRIPTION.CANCELLED', 'I-1'))).toMatchObject({
      subscriptionId: null,
    });
    expect(readPaypalEvent('not json')).toBeNull();
    expect(
      readPaypalEvent(JSON.stringify({ id: 7, event_type: 'BILLING.SUBSCRIPTION.CANCELLED' })),
    ).toBeNull();
  });

  it('refuses a delivery it cannot verify before reading it', async () => {
    const gateway = createPaypalGateway({
      clientId: 'id',
      clientSecret: 'secret',
      apiUrl: 'http://127.0.0.1:9',
      webhookId: null,
    });
    expect(
      await gateway.parseWebhook(Buffer.from(envelope('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-1' })), {}),
    ).toEqual({ kind: 'unauthorized', message: 'Invalid webhook signature.' });
  });
});
