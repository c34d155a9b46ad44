/**
 * Renewals the bank wants the customer to authenticate, and renewals that failed (issue 11,
 * defect 4; issue 14's payment alerts). Stripe charges a renewal off-session; when the bank asks
 * for 3-D Secure, invoice.payment_action_required names the invoice. We keep that invoice on the
 * subscription, e-mail the client once, and the Subscription tab offers "Confirm payment", which
 * completes it with Stripe.js. invoice.paid clears it, from whichever side it comes.
 */
import { BILLING_MESSAGES, type PaymentAction } from '../../contract/billing';
import { formatMoney } from '../../contract/format';
import { findClient } from '../clients/clients-repository';
import type { ClientRow } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { PRODUCT_NAME, renderEmail } from '../notifications/email-layout';
import { enqueue } from '../notifications/outbox';
import { syncStripeSubscription } from './activation';
import { awaitStripe } from './await-stripe';
import type { BillingContext } from './billing-context';
import { requireStripe } from './gateways';
import {
  findByStripeSubscription,
  findSubscription,
  isEnded,
  updateSubscription,
} from './subscriptions-repository';

/** The invoice fields the webhook passes on (Stripe's invoice object). */
export interface InvoiceEvent {
  id: string;
  billingReason: string | null;
  subscriptionId: string;
  amountDue: number;
  currency: string;
}

/** Only renewals wait for the client here: first payments and plan changes ask in the browser at once. */
const RENEWAL = 'subscription_cycle';

export async function noteActionRequired(ctx: BillingContext, invoice: InvoiceEvent): Promise<void> {
  if (invoice.billingReason !== RENEWAL) return;
  const { db, now } = ctx.deps;
  const row = await findByStripeSubscription(db, invoice.subscriptionId);
  if (!row) return;
  await updateSubscription(db, row.id, { action_invoice_id: invoice.id, updated_at: now() });
  await paymentEmail(ctx, row.client_id, invoice, 'action');
}

export async function noteInvoicePaid(ctx: BillingContext, invoice: InvoiceEvent): Promise<void> {
  const { db, now } = ctx.deps;
  const row = await findByStripeSubscription(db, invoice.subscriptionId);
  if (row?.action_invoice_id === invoice.id)
    await updateSubscription(db, row.id, { action_invoice_id: null, updated_at: now() });
}

export async function notePaymentFailed(ctx: BillingContext, invoice: InvoiceEvent): Promise<void> {
  if (invoice.billingReason !== RENEWAL) return;
  const row = await findByStripeSubscription(ctx.deps.db, invoice.subscriptionId);
  if (row) await paymentEmail(ctx, row.client_id, invoice, 'failed');
}

/** The renewal waiting for the client, with the secret Stripe.js confirms it with. */
export async function pendingPaymentAction(ctx: BillingContext, client: ClientRow): Promise<PaymentAction> {
  const stripe = requireStripe(ctx.gateways);
  const { db, now } = ctx.deps;
  const row = await findSubscription(db, client.id);
  if (!row || isEnded(row, now()) || !row.action_invoice_id) throw notFound(BILLING_MESSAGES.noPaymentAction);
  const payment = await stripe.getInvoicePayment(row.action_invoice_id);
  if (!payment.clientSecret) {
    // Paid meanwhile (or voided): nothing is waiting any more.
    await updateSubscription(db, row.id, { action_invoice_id: null, updated_at: now() });
    throw notFound(BILLING_MESSAGES.noPaymentAction);
  }
  return {
    clientSecret: payment.clientSecret,
    amountDue: payment.amountDue / 100,
    currency: payment.currency,
  };
}

/** After Stripe.js completed the authentication: Stripe, not the browser, says whether it is paid. */
export async function confirmPaymentAction(ctx: BillingContext, client: ClientRow): Promise<void> {
  const stripe = requireStripe(ctx.gateways);
  const { db, now } = ctx.deps;
  const row = await findSubscription(db, client.id);
  if (!row?.action_invoice_id || !row.stripe_subscription_id)
    throw notFound(BILLING_MESSAGES.noPaymentAction);
  const payment = await stripe.getInvoicePayment(row.action_invoice_id);
  if (payment.invoiceStatus !== 'paid' && payment.paymentStatus !== 'succeeded')
    throw new HttpError(402, BILLING_MESSAGES.paymentActionFailed);
  await updateSubscription(db, row.id, { action_invoice_id: null, updated_at: now() });
  // Stripe turns the subscription active a moment after the invoice is paid (await-stripe.ts);
  // past the bound, its webhook does.
  const settled = await awaitStripe(
    ctx,
    stripe,
    row.stripe_subscription_id,
    (p) => p.info.status === 'active',
  );
  if (settled !== 'pending') await syncStripeSubscription(ctx, settled.info);
}

async function paymentEmail(
  ctx: BillingContext,
  clientId: string,
  invoice: InvoiceEvent,
  kind: 'action' | 'failed',
): Promise<void> {
  const { db, config, now } = ctx.deps;
  const client = await findClient(db, clientId);
  if (!client) return;
  const amount = formatMoney(invoice.amountDue / 100);
  const heading =
    kind === 'action' ? 'Please confirm your subscription payment' : 'Your subscription payment failed';
  const content = renderEmail({
    brand: PRODUCT_NAME,
    heading,
    lines: [
      kind === 'action'
        ? `Your bank asks you to confirm the ${amount} renewal of your subscription. Until you do, it stays unpaid.`
        : `We could not charge ${amount} for your subscription renewal. Stripe will try again; you can also update your card.`,
    ],
    action: {
      label: kind === 'action' ? 'Confirm payment' : 'Update payment method',
      url: `${config.publicUrl.replace(/\/$/, '')}/settings?tab=subscription`,
    },
    footer: 'Account alerts are always sent: they are about your plan and payments.',
  });
  await enqueue(
    db,
    [
      {
        clientId,
        channel: 'email',
        topic: kind === 'action' ? 'payment.action_required' : 'payment.failed',
        dedupeKey: `email:payment-${kind}:${invoice.id}`,
        payload: { to: client.email, subject: heading, ...content },
      },
    ],
    now(),
  );
}
