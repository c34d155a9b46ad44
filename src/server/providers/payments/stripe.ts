/**
 * Card payments through Stripe: the only module that talks to Stripe's API. It wraps the official
 * `stripe` SDK (pointed at STRIPE_API_URL when set, e.g. the stand-in in sim/stripe) and answers in
 * our terms: milliseconds, card brand/last4/expiry, PaymentError. It decides nothing about our
 * database; billing/ does.
 *
 * Current API shapes (2025-03-31.basil and later, the SDK's default version): the 3-D Secure
 * secret is `latest_invoice.confirmation_secret.client_secret` (an includable field, so it is
 * expanded), and the period end lives on the subscription item, `items.data[0].current_period_end`.
 */
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { PaymentError, USER_MESSAGES } from './errors';
import { readStripeEvent } from './stripe-events';
import { headerValue, type PaymentGateway } from './types';

export interface StripeGatewayOptions {
  secretKey: string;
  /** Base URL of a Stripe-compatible API (the stand-in); null for Stripe itself. */
  apiUrl?: string | null;
  /** The endpoint's signing secret (whsec_…), for constructEvent. */
  webhookSecret: string | null;
  timeoutMs?: number;
}

export interface CardDetails {
  /** The attached PaymentMethod's id: use this one (a test token such as pm_card_visa gets a new id). */
  paymentMethodId: string;
  brand: string;
  last4: string;
  /** "MM/YYYY" */
  exp: string;
  expMonth: number;
  expYear: number;
}

export interface StripeSubscriptionInfo {
  id: string;
  status: Stripe.Subscription.Status;
  customerId: string;
  priceId: string | null;
  /** End of the current period in epoch milliseconds. */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  metadata: Record<string, string>;
  /** A price change waits (pending_if_incomplete) for its invoice to be paid. */
  pendingUpdate: boolean;
}

/** What moving a subscription to another price costs now, as Stripe's invoice preview says. */
export interface PriceChangePreview {
  /** What the card is charged now, in cents (0 when the credit covers it). */
  amountDue: number;
  /** The prorations' sum in cents: negative when unused time is worth more than the new price's remainder. */
  total: number;
  currency: string;
  /** Epoch seconds; pass it to changePriceNow so the charge is the previewed one. */
  prorationDate: number;
  /** The customer's credit after this invoice, in cents (≥ 0). */
  creditAfter: number;
}

export type PriceChangeOutcome =
  | { status: 'applied'; info: StripeSubscriptionInfo; amountPaid: number; invoiceId: string | null }
  | { status: 'requires_action'; info: StripeSubscriptionInfo; clientSecret: string; invoiceId: string };

export interface CreatedSubscription extends StripeSubscriptionInfo {
  /** Set when the first payment needs the customer (3-D Secure): confirm it with Stripe.js. */
  clientSecret: string | null;
}

/** A subscription with the state of the payment of its latest invoice (a first payment, say). */
export interface SubscriptionPayment {
  info: StripeSubscriptionInfo;
  /** The PaymentIntent's status (succeeded, processing, requires_action, …); null when none. */
  paymentStatus: Stripe.PaymentIntent.Status | null;
}

/** A SetupIntent as billing needs it: whose, how it stands, and the card it saved. */
export interface SetupIntentInfo {
  id: string;
  status: Stripe.SetupIntent.Status;
  customerId: string | null;
  paymentMethodId: string | null;
}

/** An invoice's payment: how it stands and, when the customer must act, the secret for Stripe.js. */
export interface InvoicePayment {
  invoiceId: string;
  /** draft | open | paid | uncollectible | void */
  invoiceStatus: string | null;
  amountDue: number;
  currency: string;
  paymentStatus: Stripe.PaymentIntent.Status | null;
  clientSecret: string | null;
}

/** Stripe's own flows beside the neutral ones (types.ts): customers, cards, 3-D Secure, proration. */
export interface StripeGateway extends PaymentGateway {
  readonly provider: 'stripe';
  /** Our customer id at Stripe: `existingId` when Stripe still has it, else a new customer. */
  ensureCustomer(input: {
    existingId: string | null;
    email: string;
    name: string;
    clientId: string;
  }): Promise<string>;
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails>;
  /**
   * A SetupIntent for saving a card for off-session charges (renewals): Stripe.js confirms it with
   * the card, asking for 3-D Secure once if the bank wants it, so later renewals are not declined
   * for lack of authentication.
   */
  createSetupIntent(input: {
    customerId: string;
    clientId: string;
  }): Promise<{ id: string; clientSecret: string }>;
  getSetupIntent(id: string): Promise<SetupIntentInfo>;
  /** Makes an already attached card (a SetupIntent's) the default for the customer and subscription. */
  setDefaultCard(input: {
    customerId: string;
    paymentMethodId: string;
    subscriptionId: string | null;
  }): Promise<CardDetails>;
  /** How an invoice's payment stands, with the secret Stripe.js needs when it requires action. */
  getInvoicePayment(invoiceId: string): Promise<InvoicePayment>;
  /** Attaches a new card and makes it the default for the customer and (when given) the subscription. */
  replacePaymentMethod(input: {
    customerId: string;
    paymentMethodId: string;
    subscriptionId: string | null;
  }): Promise<CardDetails>;
  /**
   * Creates the subscription and charges its first invoice. A declined card throws
   * PaymentError('card') after cancelling the incomplete subscription Stripe kept.
   */
  createSubscription(input: {
    customerId: string;
    priceId: string;
    paymentMethodId: string;
    clientId: string;
    planId: string;
    idempotencyKey: string;
  }): Promise<CreatedSubscription>;
  getSubscription(id: string): Promise<StripeSubscriptionInfo>;
  /** The subscription and how its latest invoice's payment stands (Stripe activates it after). */
  getSubscriptionPayment(id: string): Promise<SubscriptionPayment>;
  setCancelAtPeriodEnd(id: string, cancelAtPeriodEnd: boolean): Promise<StripeSubscriptionInfo>;
  /** Moves the subscription to another price from now on (Stripe prorates on the next invoice). */
  changePrice(id: string, priceId: string, idempotencyKey: string): Promise<StripeSubscriptionInfo>;
  /**
   * The invoice a move to `priceId` at `prorationDate` makes at once (always_invoice): unused time
   * on the old price credited, remaining time on the new one charged.
   */
  previewPriceChange(input: {
    customerId: string;
    subscriptionId: string;
    priceId: string;
    prorationDate: number;
  }): Promise<PriceChangePreview>;
  /**
   * Moves the subscription to `priceId` now and bills the prorations at once with the
   * subscription's saved card, computed at `prorationDate` (the preview's). The change applies
   * only once that invoice is paid (pending_if_incomplete): 3-D Secure answers requires_action; a
   * decline voids the invoice, drops the change and throws PaymentError('card').
   * cancel_at_period_end is left as it was.
   */
  changePriceNow(input: {
    subscriptionId: string;
    priceId: string;
    prorationDate: number;
    idempotencyKey: string;
  }): Promise<PriceChangeOutcome>;
  /** Voids an open invoice (an abandoned plan-change payment); one no longer open is left alone. */
  voidInvoice(id: string): Promise<void>;
  /** Ends the subscription now; an already-ended one is returned as it is. */
  cancelNow(id: string): Promise<StripeSubscriptionInfo>;
  /** Verifies `Stripe-Signature` over the raw body and parses the event; throws PaymentError('signature'). */
  constructEvent(rawBody: Buffer | string, signatureHeader: string | undefined): Stripe.Event;
  /**
   * A monthly price for the plan: `existingPriceId` when it still matches the amount, else the
   * price found by lookup key, else a new product and price.
   */
  ensurePrice(input: {
    planId: string;
    name: string;
    monthlyPriceCents: number;
    existingPriceId?: string | null;
    currency?: string;
  }): Promise<string>;
}

export function createStripeGateway(options: StripeGatewayOptions): StripeGateway {
  const local = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    ...(local
      ? {
          host: local.hostname,
          port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)),
          protocol: local.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    // Locally a retry only hides bugs; against Stripe the SDK's retries are safe (it adds idempotency keys).
    maxNetworkRetries: local ? 0 : 2,
    timeout: options.timeoutMs ?? 20_000,
    appInfo: { name: 'call-analytics-platform' },
  });

  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw toPaymentError(err);
    }
  };

  /** The card becomes the customer's default for invoices and, when given, the subscription's. */
  async function makeDefault(customerId: string, paymentMethodId: string, subscriptionId: string | null) {
    await call(() =>
      stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } }),
    );
    if (subscriptionId) {
      await call(() =>
        stripe.subscriptions.update(subscriptionId, { default_payment_method: paymentMethodId }),
      );
    }
  }

  async function retrieveSubscription(id: string): Promise<Stripe.Subscription> {
    return call(() => stripe.subscriptions.retrieve(id));
  }

  const gateway: StripeGateway = {
    provider: 'stripe',
    webhooksConfigured: !!options.webhookSecret,

    ensurePlanPrice: ({ existingId, ...plan }) =>
      gateway.ensurePrice({ ...plan, existingPriceId: existingId }),

    async endSubscription(id) {
      await gateway.cancelNow(id);
    },

    async parseWebhook(rawBody, headers) {
      try {
        const event = gateway.constructEvent(rawBody, headerValue(headers, 'stripe-signature') ?? undefined);
        return { kind: 'event', event: readStripeEvent(event) };
      } catch (err) {
        if (err instanceof PaymentError && err.kind === 'signature')
          return { kind: 'unauthorized', message: err.message };
        throw err;
      }
    },

    async ensureCustomer({ existingId, email, name, clientId }) {
      if (existingId) {
        try {
          const found = await stripe.customers.retrieve(existingId);
          if (!('deleted' in found && found.deleted)) return found.id;
        } catch (err) {
          const mapped = toPaymentError(err);
          if (mapped.kind !== 'not_found') throw mapped;
        }
      }
      const created = await call(() =>
        stripe.customers.create(
          { email, name, metadata: { clientId } },
          // Two checkouts racing for one client make one customer, not two. The key names the
          // details too: Stripe refuses a key reused with other parameters.
          { idempotencyKey: `customer-${clientId}-${existingId ?? 'new'}-${digest(`${email}\n${name}`)}` },
        ),
      );
      return created.id;
    },

    async attachPaymentMethod(customerId, paymentMethodId) {
      const pm = await call(() => stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }));
      return cardDetails(pm);
    },

    async createSetupIntent({ customerId, clientId }) {
      const intent = await call(() =>
        stripe.setupIntents.create({
          customer: customerId,
          usage: 'off_session',
          payment_method_types: ['card'],
          metadata: { clientId },
        }),
      );
      if (!intent.client_secret)
        throw new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, {
          providerMessage: 'no client_secret',
        });
      return { id: intent.id, clientSecret: intent.client_secret };
    },

    async getSetupIntent(id) {
      const intent = await call(() => stripe.setupIntents.retrieve(id));
      return {
        id: intent.id,
        status: intent.status,
        customerId: refId(intent.customer),
        paymentMethodId: refId(intent.payment_method),
      };
    },

    async setDefaultCard({ customerId, paymentMethodId, subscriptionId }) {
      const card = cardDetails(await call(() => stripe.paymentMethods.retrieve(paymentMethodId)));
      await makeDefault(customerId, card.paymentMethodId, subscriptionId);
      return card;
    },

    async getInvoicePayment(invoiceId) {
      const invoice = await call(() =>
        stripe.invoices.retrieve(invoiceId, { expand: ['confirmation_secret'] }),
      );
      const clientSecret = invoice.confirmation_secret?.client_secret ?? null;
      const intent = clientSecret
        ? await call(() => stripe.paymentIntents.retrieve(clientSecret.split('_secret_')[0]))
        : null;
      return {
        invoiceId: invoice.id ?? invoiceId,
        invoiceStatus: invoice.status ?? null,
        amountDue: invoice.amount_due,
        currency: invoice.currency,
        paymentStatus: intent?.status ?? null,
        clientSecret: intent?.status === 'requires_action' ? clientSecret : null,
      };
    },

    async replacePaymentMethod({ customerId, paymentMethodId, subscriptionId }) {
      const card = await gateway.attachPaymentMethod(customerId, paymentMethodId);
      await makeDefault(customerId, card.paymentMethodId, subscriptionId);
      return card;
    },

    async createSubscription({ customerId, priceId, paymentMethodId, clientId, planId, idempotencyKey }) {
      const sub = await call(() =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: priceId }],
            default_payment_method: paymentMethodId,
            payment_behavior: 'allow_incomplete',
            // The first payment (3-D Secure included) also sets the card up for off-session
            // renewals, so the bank does not ask again every month.
            payment_settings: { save_default_payment_method: 'on_subscription' },
            metadata: { clientId, planId },
            expand: ['latest_invoice.confirmation_secret'],
          },
          { idempotencyKey },
        ),
      );
      const info = subscriptionInfo(sub);
      if (sub.status !== 'incomplete') return { ...info, clientSecret: null };

      const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
      const clientSecret = invoice?.confirmation_secret?.client_secret ?? null;
      if (!clientSecret) return { ...info, clientSecret: null };
      // The secret alone does not say whether the bank wants 3-D Secure or refused the card.
      const intent = await call(() => stripe.paymentIntents.retrieve(clientSecret.split('_secret_')[0]));
      if (intent.status === 'requires_action') return { ...info, clientSecret };
      if (intent.status === 'requires_payment_method' || intent.status === 'canceled') {
        const error = intent.last_payment_error;
        // Stripe would keep the incomplete subscription for 23 hours; the next attempt makes a new one.
        await stripe.subscriptions.cancel(sub.id).catch(() => undefined);
        throw new PaymentError('stripe', 'card', error?.message ?? 'Your card was declined.', {
          code: error?.code ?? 'card_declined',
          declineCode: error?.decline_code ?? null,
          status: 402,
        });
      }
      return { ...info, clientSecret: null };
    },

    async getSubscription(id) {
      return subscriptionInfo(await retrieveSubscription(id));
    },

    async getSubscriptionPayment(id) {
      const sub = await call(() =>
        stripe.subscriptions.retrieve(id, { expand: ['latest_invoice.confirmation_secret'] }),
      );
      const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
      const clientSecret = invoice?.confirmation_secret?.client_secret ?? null;
      const intent = clientSecret
        ? await call(() => stripe.paymentIntents.retrieve(clientSecret.split('_secret_')[0]))
        : null;
      return { info: subscriptionInfo(sub), paymentStatus: intent?.status ?? null };
    },

    async setCancelAtPeriodEnd(id, cancelAtPeriodEnd) {
      const sub = await call(() =>
        stripe.subscriptions.update(id, { cancel_at_period_end: cancelAtPeriodEnd }),
      );
      return subscriptionInfo(sub);
    },

    async changePrice(id, priceId, idempotencyKey) {
      const current = await retrieveSubscription(id);
      const item = current.items.data[0];
      if (!item)
        throw new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, { providerMessage: 'no items' });
      const sub = await call(() =>
        stripe.subscriptions.update(
          id,
          { items: [{ id: item.id, price: priceId }], proration_behavior: 'create_prorations' },
          { idempotencyKey },
        ),
      );
      return subscriptionInfo(sub);
    },

    async previewPriceChange({ customerId, subscriptionId, priceId, prorationDate }) {
      const current = await retrieveSubscription(subscriptionId);
      const item = current.items.data[0];
      if (!item)
        throw new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, { providerMessage: 'no items' });
      const invoice = await call(() =>
        stripe.invoices.createPreview({
          customer: customerId,
          subscription: subscriptionId,
          subscription_details: {
            items: [{ id: item.id, price: priceId }],
            proration_behavior: 'always_invoice',
            proration_date: prorationDate,
          },
        }),
      );
      const endingCredit = -(invoice.starting_balance + invoice.total);
      return {
        amountDue: invoice.amount_due,
        total: invoice.total,
        currency: invoice.currency,
        prorationDate,
        creditAfter: Math.max(0, endingCredit),
      };
    },

    async changePriceNow({ subscriptionId, priceId, prorationDate, idempotencyKey }) {
      const current = await retrieveSubscription(subscriptionId);
      const item = current.items.data[0];
      if (!item)
        throw new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, { providerMessage: 'no items' });
      const previousInvoice = invoiceId(current.latest_invoice);
      let sub = await call(() =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price: priceId }],
            proration_behavior: 'always_invoice',
            proration_date: prorationDate,
            payment_behavior: 'pending_if_incomplete',
            expand: ['latest_invoice.confirmation_secret'],
          },
          { idempotencyKey },
        ),
      );
      const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
      const newInvoice = invoice && invoice.id !== previousInvoice ? invoice : null;
      if (!sub.pending_update) {
        // A plan change is not a decision to renew: a pending cancellation stays pending.
        if (sub.cancel_at_period_end !== current.cancel_at_period_end) {
          sub = await call(() =>
            stripe.subscriptions.update(subscriptionId, {
              cancel_at_period_end: current.cancel_at_period_end,
            }),
          );
        }
        return {
          status: 'applied',
          info: subscriptionInfo(sub),
          amountPaid: newInvoice?.amount_paid ?? 0,
          invoiceId: newInvoice?.id ?? null,
        };
      }
      const clientSecret = newInvoice?.confirmation_secret?.client_secret ?? null;
      if (newInvoice?.id && clientSecret) {
        const intent = await call(() => stripe.paymentIntents.retrieve(clientSecret.split('_secret_')[0]));
        if (intent.status === 'requires_action') {
          return {
            status: 'requires_action',
            info: subscriptionInfo(sub),
            clientSecret,
            invoiceId: newInvoice.id,
          };
        }
        const error = intent.last_payment_error;
        // Voiding the invoice drops the pending change: the subscription stays as it was.
        await stripe.invoices.voidInvoice(newInvoice.id).catch(() => undefined);
        throw new PaymentError('stripe', 'card', error?.message ?? 'Your card was declined.', {
          code: error?.code ?? 'card_declined',
          declineCode: error?.decline_code ?? null,
          status: 402,
        });
      }
      if (newInvoice?.id) await stripe.invoices.voidInvoice(newInvoice.id).catch(() => undefined);
      throw new PaymentError('stripe', 'card', 'Your card was declined.', {
        code: 'card_declined',
        status: 402,
      });
    },

    async voidInvoice(id) {
      const invoice = await call(() => stripe.invoices.retrieve(id));
      if (invoice.status === 'open') await call(() => stripe.invoices.voidInvoice(id));
    },

    async cancelNow(id) {
      try {
        return subscriptionInfo(await stripe.subscriptions.cancel(id));
      } catch (err) {
        const mapped = toPaymentError(err);
        // Stripe answers "No such subscription" for one that has already ended.
        if (mapped.kind !== 'not_found') throw mapped;
        return subscriptionInfo(await retrieveSubscription(id));
      }
    },

    constructEvent(rawBody, signatureHeader) {
      if (!options.webhookSecret) {
        throw new PaymentError(
          'stripe',
          'auth',
          'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).',
        );
      }
      if (!signatureHeader) throw new PaymentError('stripe', 'signature', USER_MESSAGES.signature);
      try {
        return stripe.webhooks.constructEvent(rawBody, signatureHeader, options.webhookSecret);
      } catch (err) {
        throw new PaymentError('stripe', 'signature', USER_MESSAGES.signature, {
          providerMessage: err instanceof Error ? err.message : String(err),
        });
      }
    },

    async ensurePrice({ planId, name, monthlyPriceCents, existingPriceId, currency = 'usd' }) {
      const matches = (p: Stripe.Price) =>
        p.active &&
        p.unit_amount === monthlyPriceCents &&
        p.currency === currency &&
        p.recurring?.interval === 'month' &&
        p.recurring.interval_count === 1;
      if (existingPriceId) {
        try {
          const price = await stripe.prices.retrieve(existingPriceId);
          if (matches(price)) return price.id;
        } catch (err) {
          const mapped = toPaymentError(err);
          if (mapped.kind !== 'not_found') throw mapped;
        }
      }
      // The lookup key finds a price made earlier even if our database lost its id.
      const lookupKey = `plan_${planId}_${monthlyPriceCents}_${currency}_month`;
      const found = await call(() =>
        stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }),
      );
      const reusable = found.data.find(matches);
      if (reusable) return reusable.id;
      const product = await call(() =>
        stripe.products.create({ name, metadata: { planId } }, { idempotencyKey: `product-${lookupKey}` }),
      );
      const price = await call(() =>
        stripe.prices.create(
          {
            product: product.id,
            currency,
            unit_amount: monthlyPriceCents,
            recurring: { interval: 'month' },
            lookup_key: lookupKey,
            transfer_lookup_key: true,
            metadata: { planId },
          },
          { idempotencyKey: `price-${lookupKey}` },
        ),
      );
      return price.id;
    },
  };
  return gateway;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function cardDetails(pm: Stripe.PaymentMethod): CardDetails {
  const card = pm.card;
  const expMonth = card?.exp_month ?? 0;
  const expYear = card?.exp_year ?? 0;
  return {
    paymentMethodId: pm.id,
    brand: card?.brand ?? pm.type,
    last4: card?.last4 ?? '',
    exp: card ? `${String(expMonth).padStart(2, '0')}/${expYear}` : '',
    expMonth,
    expYear,
  };
}

function subscriptionInfo(sub: Stripe.Subscription): StripeSubscriptionInfo {
  const item = sub.items.data[0];
  return {
    id: sub.id,
    status: sub.status,
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    priceId: item?.price.id ?? null,
    currentPeriodEnd: item ? item.current_period_end * 1000 : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    metadata: sub.metadata ?? {},
    pendingUpdate: !!sub.pending_update,
  };
}

const invoiceId = (invoice: string | Stripe.Invoice | null): string | null =>
  typeof invoice === 'string' ? invoice : (invoice?.id ?? null);

/** Stripe's error classes, reduced to what our routes need to decide and to say. */
export function toPaymentError(err: unknown): PaymentError {
  if (err instanceof PaymentError) return err;
  if (!(err instanceof Stripe.errors.StripeError)) {
    return new PaymentError('stripe', 'unavailable', USER_MESSAGES.unavailable, {
      providerMessage: err instanceof Error ? err.message : String(err),
    });
  }
  const detail = {
    code: err.code ?? null,
    declineCode: err.decline_code ?? null,
    status: err.statusCode ?? null,
    providerMessage: err.message,
  };
  switch (err.type) {
    case 'StripeCardError':
      return new PaymentError('stripe', 'card', err.message || 'Your card was declined.', detail);
    case 'StripeInvalidRequestError':
      if (err.code === 'resource_missing' && (err.statusCode === 404 || err.param === 'id')) {
        return new PaymentError('stripe', 'not_found', USER_MESSAGES.invalid, detail);
      }
      return new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, detail);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentError('stripe', 'auth', USER_MESSAGES.auth, detail);
    case 'StripeIdempotencyError':
      return new PaymentError('stripe', 'invalid', USER_MESSAGES.invalid, detail);
    default:
      return new PaymentError('stripe', 'unavailable', USER_MESSAGES.unavailable, detail);
  }
}

/** The id of an expandable reference (a string, an expanded object, or null). */
function refId(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}
