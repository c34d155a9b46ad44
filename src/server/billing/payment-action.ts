/**
 * Renewals the bank wants the customer to authenticate, and renewals that failed (* defect 4). Stripe charges a renewal off-session; when the bank asks
 * for 3-D Secure, invoice.payment_action_required names the invoice. We keep that invoice on the
 * subscription, e-mail the client once, and the Subscription tab offers "Confirm payment", which
 * completes it with Stripe.js. invoice.paid clears it, from whichever side it comes.
 */
import { BILLING_MESSAGES, type PaymentAction } from '../../contract/billing';
import { formatMoney } from '../../contract/format';
import { findClient } from '../clients/clients-repository';
import type { ClientRow } from '../db/schema';
import { HttpError, notFound } from '../http/errors';
import type { EmailContent, QueuedEmail } from '../notifications/email-layout';
import { enqueue, type NewMessage } from '../notifications/outbox';
import { toBillingHolders } from '../notifications/recipients';
import type { PaymentEvent, PaymentProvider } from '../providers/payments/types';
import { syncStripeSubscription } from './activation';
import { awaitStripe } from './await-stripe';
import type { BillingContext } from './billing-context';
import { requireStripe } from './gateways';
import {
  findByProviderSubscription,
  findSubscription,
  isEnded,
  updateSubscription,
} from './subscriptions-repository';

/**
 * What a webhook's charge notice means for the subscription it names (payment-webhooks.ts). Only
 * renewals wait for the client here: first payments and plan changes ask in the browser at once.
 */
export async function noteCharge(
  ctx: BillingContext,
  provider: PaymentProvider,
  event: PaymentEvent,
): Promise<void> {
  const { charge, subscriptionId } = event;
  if (!charge || !subscriptionId) return;
  const { db, now } = ctx.deps;
  const row = await findByProviderSubscription(db, provider, subscriptionId);
  if (!row) return;
  switch (charge.kind) {
    case 'action_required':
      if (!charge.renewal) return;
      await updateSubscription(db, row.id, { action_invoice_id: charge.invoiceId, updated_at: now() });
      await queuePaymentAlerts(ctx, row.client_id, {
        kind: 'action',
        key: charge.invoiceId,
        amount: formatMoney(charge.amountDueCents / 100),
      });
      return;
    case 'paid':
      if (row.action_invoice_id === charge.invoiceId)
        await updateSubscription(db, row.id, { action_invoice_id: null, updated_at: now() });
      return;
    case 'failed':
      if (!charge.renewal) return;
      await queuePaymentAlerts(ctx, row.client_id, {
        kind: 'failed',
        // One e-mail per invoice; PayPal names none, so one per event.
        key: charge.invoiceId ?? `${provider}:${event.id}`,
        amount: charge.amountDueCents === null ? null : formatMoney(charge.amountDueCents / 100),
      });
      return;
  }
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

/** What an account alert about a payment says, and the key that keeps it to one e-mail. */
export interface PaymentAlert {
  kind: 'action' | 'failed';
  /** One cause, one e-mail: the invoice id, or PayPal's event id. */
  key: string;
  /** "$49.00", when the provider said. */
  amount: string | null;
}

/**
 * Account alerts about payments, always sent: to the client, and for a failure also to the agency
 * (ADMIN_EMAIL), each once per cause.
 */
export async function queuePaymentAlerts(
  ctx: BillingContext,
  clientId: string,
  alert: PaymentAlert,
): Promise<void> {
  const { db, config, now } = ctx.deps;
  const client = await findClient(db, clientId);
  if (!client) return;
  const base = config.publicUrl.replace(/\/$/, '');
  const renewal = alert.amount
    ? `the ${alert.amount} renewal of your subscription`
    : 'your subscription renewal';
  const heading =
    alert.kind === 'action' ? 'Please confirm your subscription payment' : 'Your subscription payment failed';
  // Rendered with the agency's brand when it is sent (notifications/email-sender.ts).
  const content: EmailContent = {
    heading,
    lines: [
      alert.kind === 'action'
        ? `Your bank asks you to confirm ${renewal}. Until you do, it stays unpaid.`
        : `We could not charge ${renewal}. It will be tried again; you can also update your payment method.`,
    ],
    action: {
      label: alert.kind === 'action' ? 'Confirm payment' : 'Update payment method',
      url: `${base}/settings?tab=subscription`,
    },
    footer: 'Account alerts are always sent: they are about your plan and payments.',
  };
  // The client's alert goes to each of its people holding `billing`.
  const messages: NewMessage[] = await toBillingHolders(db, [
    {
      clientId,
      channel: 'email',
      topic: alert.kind === 'action' ? 'payment.action_required' : 'payment.failed',
      dedupeKey: `email:payment-${alert.kind}:${alert.key}`,
      payload: { to: client.email, subject: heading, content } satisfies QueuedEmail,
    },
  ]);
  const admin = config.mail.adminEmail;
  if (alert.kind === 'failed' && admin) {
    const name = client.company_name || client.email;
    const agencyHeading = `A payment from ${name} failed`;
    messages.push({
      clientId,
      channel: 'email',
      topic: 'admin.payment-failed',
      dedupeKey: `email:admin-payment-failed:${alert.key}`,
      payload: {
        to: admin,
        subject: agencyHeading,
        content: {
          heading: agencyHeading,
          lines: [
            `${name}'s ${alert.amount ? `${alert.amount} ` : ''}subscription renewal could not be charged.`,
          ],
          action: { label: 'Open the client', url: `${base}/admin/client/${encodeURIComponent(clientId)}` },
          footer: 'Sent to the agency (ADMIN_EMAIL) for every failed payment.',
        },
      } satisfies QueuedEmail,
    });
  }
  await enqueue(db, messages, now());
}
