/**
 * The billing behaviour of the stand-in: customers, test cards, subscriptions with their first
 * invoice and PaymentIntent, 3-D Secure confirmation, renewals. It mirrors what Stripe does in test
 * mode with `payment_behavior: 'allow_incomplete'` (the default since API 2019-03-14):
 * - pm_card_visa: the first invoice is paid, the subscription is `active`;
 * - pm_card_authenticationRequired: the subscription is `incomplete`, the invoice `open`, its
 *   PaymentIntent `requires_action` until Stripe.js confirms it;
 * - pm_card_chargeDeclined (4000 0000 0000 0002): cannot even be attached to a customer: the attach
 *   call answers 402 card_declined, so no subscription is ever created with it;
 * - pm_card_chargeCustomerFail (…0341): attaches, then the first charge fails: the subscription is
 *   `incomplete`, the PaymentIntent `requires_payment_method` with `last_payment_error`.
 * Parameters arrive already parsed; this module knows nothing of HTTP.
 */
import { AUTHENTICATION_FAILURE, DECLINE, StripeSimError } from './errors';
import {
  applyMetadata,
  type FormObject,
  optArray,
  optBool,
  optInt,
  optObject,
  optString,
  reqString,
} from './form';
import {
  addInterval,
  buildPaymentMethod,
  type CardBehaviour,
  type Customer,
  formatAmount,
  type Interval,
  type Invoice,
  type InvoiceLine,
  list,
  newId,
  type PaymentIntent,
  type PaymentMethod,
  type Price,
  type Product,
  planFromPrice,
  type SetupIntent,
  type Subscription,
  type SubscriptionItem,
  TEST_CARDS,
} from './objects';
import { prorate } from './proration';
import type { StripeSimState } from './state';

export interface BillingContext {
  state: StripeSimState;
  /** Seconds since the epoch, like every Stripe timestamp. */
  now(): number;
  /** Records an event; the caller delivers it once the API answer has gone out. */
  emit(type: string, object: unknown, previousAttributes?: Record<string, unknown>): void;
  baseUrl(): string;
  /** Runs work after `ms`, with its own events (Stripe's asynchronous steps); absent: at once. */
  later?(ms: number, work: (billing: StripeBilling) => void): void;
}

type ChargeOutcome = 'succeeded' | 'requires_action' | 'declined';

/** One invoice line to be: an item's amount over a period, a proration or a full period. */
interface LineSpec {
  item: Pick<SubscriptionItem, 'id' | 'price' | 'quantity'>;
  amount: number;
  period: { start: number; end: number };
  proration: boolean;
}

const PRORATION_BEHAVIORS = ['always_invoice', 'create_prorations', 'none'] as const;
type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];
/** What a `pending_if_incomplete` update may change (Stripe's pending updates reference). */
const PENDING_UPDATE_PARAMS = ['items', 'payment_behavior', 'proration_behavior', 'proration_date', 'expand'];
/** Pending updates expire after 23 hours, like an incomplete subscription. */
const PENDING_UPDATE_TTL = 23 * 3600;

const clone = <T>(value: T): T => structuredClone(value);

export class StripeBilling {
  constructor(private readonly ctx: BillingContext) {}

  private get state() {
    return this.ctx.state;
  }

  // ---------- lookups ----------

  customer(id: string, param?: string): Customer {
    const c = this.state.customers.get(id);
    if (!c) throw StripeSimError.noSuch('customer', id, param);
    return c;
  }

  subscription(id: string): Subscription {
    const s = this.state.subscriptions.get(id);
    if (!s) throw StripeSimError.noSuch('subscription', id);
    return s;
  }

  price(id: string, param?: string): Price {
    const p = this.state.prices.get(id);
    if (!p) throw StripeSimError.noSuch('price', id, param);
    return p;
  }

  product(id: string, param?: string): Product {
    const p = this.state.products.get(id);
    if (!p) throw StripeSimError.noSuch('product', id, param);
    return p;
  }

  invoice(id: string): Invoice {
    const i = this.state.invoices.get(id);
    if (!i) throw StripeSimError.noSuch('invoice', id);
    return i;
  }

  paymentIntent(id: string): PaymentIntent {
    const pi = this.state.paymentIntents.get(id);
    if (!pi) throw StripeSimError.noSuch('payment_intent', id);
    return pi;
  }

  /** A stored PaymentMethod, or the test card a magic id like `pm_card_visa` stands for. */
  paymentMethod(id: string, param?: string): PaymentMethod {
    const pm = this.state.paymentMethods.get(id);
    if (pm) return pm;
    const card = TEST_CARDS[id];
    if (card) return buildPaymentMethod(id, card, this.ctx.now());
    throw StripeSimError.noSuch('PaymentMethod', id, param);
  }

  // ---------- customers ----------

  createCustomer(params: FormObject): Customer {
    const now = this.ctx.now();
    const customer: Customer = {
      id: newId('cus', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: now,
      currency: null,
      default_source: null,
      delinquent: false,
      description: optString(params, 'description') ?? null,
      email: optString(params, 'email') ?? null,
      invoice_prefix: newId('x', 8).slice(2).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: applyMetadata({}, params),
      name: optString(params, 'name') ?? null,
      next_invoice_sequence: 1,
      phone: optString(params, 'phone') ?? null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.state.customers.set(customer.id, customer);
    const pmId = optString(params, 'payment_method');
    if (pmId) this.attachPaymentMethod(pmId, customer.id);
    const settings = optObject(params, 'invoice_settings');
    if (settings) this.applyInvoiceSettings(customer, settings);
    this.ctx.emit('customer.created', clone(customer));
    return customer;
  }

  updateCustomer(id: string, params: FormObject): Customer {
    const customer = this.customer(id);
    const before = clone(customer);
    const email = optString(params, 'email');
    if (email !== undefined) customer.email = email || null;
    const name = optString(params, 'name');
    if (name !== undefined) customer.name = name || null;
    const description = optString(params, 'description');
    if (description !== undefined) customer.description = description || null;
    customer.metadata = applyMetadata(customer.metadata, params);
    const settings = optObject(params, 'invoice_settings');
    if (settings) this.applyInvoiceSettings(customer, settings);
    const previous = changedFields(before, customer);
    if (previous) this.ctx.emit('customer.updated', clone(customer), previous);
    return customer;
  }

  private applyInvoiceSettings(customer: Customer, settings: FormObject): void {
    const pmId = optString(settings, 'default_payment_method');
    if (pmId === undefined) return;
    if (pmId === '') {
      customer.invoice_settings.default_payment_method = null;
      return;
    }
    this.requireAttached(pmId, customer.id, 'invoice_settings[default_payment_method]');
    customer.invoice_settings.default_payment_method = pmId;
  }

  // ---------- payment methods ----------

  /**
   * Like Stripe, attaching a magic test id (`pm_card_visa`) makes a new PaymentMethod with its own
   * id: the caller must use the id this returns. Cards Stripe documents as "cannot be attached"
   * (the generic decline card) answer 402 here, before any subscription exists.
   */
  attachPaymentMethod(pmId: string, customerId: string): PaymentMethod {
    const customer = this.customer(customerId, 'customer');
    const magic = TEST_CARDS[pmId];
    if (magic?.behaviour === 'declined_on_attach') throw StripeSimError.cardDeclined({ param: '' });
    let pm = this.state.paymentMethods.get(pmId);
    if (!pm && magic) pm = this.storeCard(magic);
    if (!pm) throw StripeSimError.noSuch('PaymentMethod', pmId);
    if (this.state.cardBehaviour.get(pm.id) === 'declined_on_attach')
      throw StripeSimError.cardDeclined({ param: '' });
    if (pm.customer && pm.customer !== customer.id) {
      throw StripeSimError.invalid(
        'The payment method you provided has already been attached to a customer.',
        undefined,
        'payment_method_unexpected_state',
      );
    }
    if (pm.customer !== customer.id) {
      pm.customer = customer.id;
      this.ctx.emit('payment_method.attached', clone(pm));
    }
    return pm;
  }

  private storeCard(card: (typeof TEST_CARDS)[string]): PaymentMethod {
    const pm = buildPaymentMethod(newId('pm'), card, this.ctx.now());
    this.state.paymentMethods.set(pm.id, pm);
    this.state.cardBehaviour.set(pm.id, card.behaviour);
    return pm;
  }

  private requireAttached(pmId: string, customerId: string, param: string): PaymentMethod {
    const pm = this.state.paymentMethods.get(pmId);
    if (!pm || pm.customer !== customerId) {
      throw new StripeSimError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param,
        message: `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
      });
    }
    return pm;
  }

  // ---------- products and prices ----------

  createProduct(params: FormObject): Product {
    const now = this.ctx.now();
    const id = optString(params, 'id') ?? newId('prod', 14);
    if (this.state.products.has(id)) {
      throw StripeSimError.invalid(`Product already exists.`, 'id', 'resource_already_exists');
    }
    const product: Product = {
      id,
      object: 'product',
      active: optBool(params, 'active') ?? true,
      created: now,
      default_price: null,
      description: optString(params, 'description') ?? null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: applyMetadata({}, params),
      name: reqString(params, 'name'),
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: null,
      updated: now,
      url: null,
    };
    this.state.products.set(product.id, product);
    return product;
  }

  createPrice(params: FormObject): Price {
    const currency = reqString(params, 'currency').toLowerCase();
    const unitAmount = optInt(params, 'unit_amount');
    if (unitAmount === undefined) throw StripeSimError.missing('unit_amount');
    if (unitAmount < 0)
      throw StripeSimError.invalid('This value must be greater than or equal to 0.', 'unit_amount');
    let productId = optString(params, 'product');
    const productData = optObject(params, 'product_data');
    if (productId && productData) {
      throw StripeSimError.invalid(
        'You may only specify one of these parameters: product, product_data.',
        'product',
      );
    }
    if (productData) productId = this.createProduct(productData).id;
    if (!productId) throw StripeSimError.missing('product');
    this.product(productId, 'product');
    const recurringParams = optObject(params, 'recurring');
    let recurring: Price['recurring'] = null;
    if (recurringParams) {
      const interval = reqString(recurringParams, 'interval') as Interval;
      if (!['day', 'week', 'month', 'year'].includes(interval)) {
        throw StripeSimError.invalid(
          `Invalid recurring[interval]: must be one of day, week, month, or year`,
          'recurring[interval]',
        );
      }
      recurring = {
        interval,
        interval_count: optInt(recurringParams, 'interval_count') ?? 1,
        meter: null,
        trial_period_days: null,
        usage_type: 'licensed',
      };
    }
    const lookupKey = optString(params, 'lookup_key') ?? null;
    if (lookupKey) {
      const holder = [...this.state.prices.values()].find((p) => p.lookup_key === lookupKey);
      if (holder && optBool(params, 'transfer_lookup_key') !== true) {
        throw StripeSimError.invalid(
          `A price (\`${holder.id}\`) already uses that lookup key.`,
          'lookup_key',
          'lookup_key_already_exists',
        );
      }
      if (holder) holder.lookup_key = null;
    }
    const price: Price = {
      id: newId('price'),
      object: 'price',
      active: optBool(params, 'active') ?? true,
      billing_scheme: 'per_unit',
      created: this.ctx.now(),
      currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: lookupKey,
      metadata: applyMetadata({}, params),
      nickname: optString(params, 'nickname') ?? null,
      product: productId,
      recurring,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
    };
    this.state.prices.set(price.id, price);
    return price;
  }

  // ---------- subscriptions ----------

  createSubscription(params: FormObject): Subscription {
    const customer = this.customer(reqString(params, 'customer'), 'customer');
    const itemParams = optArray(params, 'items');
    if (!itemParams || itemParams.length === 0) throw StripeSimError.missing('items');
    const behaviour = optString(params, 'payment_behavior') ?? 'allow_incomplete';
    if (!['allow_incomplete', 'default_incomplete', 'error_if_incomplete'].includes(behaviour)) {
      throw StripeSimError.invalid(
        behaviour === 'pending_if_incomplete'
          ? 'pending_if_incomplete is only supported when updating a subscription.'
          : `Invalid payment_behavior: must be one of allow_incomplete, default_incomplete, or error_if_incomplete`,
        'payment_behavior',
      );
    }
    const explicitPm = optString(params, 'default_payment_method');
    if (explicitPm) this.requireAttached(explicitPm, customer.id, 'default_payment_method');
    const pmId = explicitPm || customer.invoice_settings.default_payment_method;
    if (!pmId && behaviour !== 'default_incomplete') {
      throw StripeSimError.invalid(
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.',
        undefined,
        'resource_missing',
      );
    }

    const now = this.ctx.now();
    const subId = newId('sub');
    const items = itemParams.map((raw, i) => {
      if (typeof raw !== 'object' || Array.isArray(raw))
        throw StripeSimError.invalid(`Invalid hash: items[${i}]`);
      return this.buildItem(subId, raw, i, now);
    });
    const currency = items[0].price.currency;
    if (items.some((it) => it.price.currency !== currency)) {
      throw StripeSimError.invalid('All prices on a subscription must have the same currency.', 'items');
    }
    const sub: Subscription = {
      id: subId,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: now,
      billing_cycle_anchor_config: null,
      billing_mode: { type: 'classic' },
      billing_thresholds: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: explicitPm || null,
      default_source: null,
      default_tax_rates: [],
      description: optString(params, 'description') ?? null,
      discounts: [],
      ended_at: null,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: list(items, `/v1/subscription_items?subscription=${subId}`),
      latest_invoice: null,
      livemode: false,
      metadata: applyMetadata({}, params),
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: {
        payment_method_options: null,
        payment_method_types: null,
        save_default_payment_method: 'off',
      },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: 'incomplete',
      test_clock: null,
      transfer_data: null,
      trial_end: null,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: null,
    };
    if (optBool(params, 'cancel_at_period_end') === true) {
      sub.cancel_at_period_end = true;
      sub.cancel_at = items[0].current_period_end;
    }
    const settings = optObject(params, 'payment_settings');
    if (settings && optString(settings, 'save_default_payment_method') === 'on_subscription')
      sub.payment_settings.save_default_payment_method = 'on_subscription';

    const invoice = this.createInvoice(
      sub,
      customer,
      'subscription_create',
      now,
      items[0].current_period_end,
    );
    sub.latest_invoice = invoice.id;
    let outcome: ChargeOutcome | 'not_attempted' = 'not_attempted';
    if (invoice.amount_due === 0) {
      this.markInvoicePaid(invoice);
      outcome = 'succeeded';
    } else {
      // As on Stripe: only with save_default_payment_method=on_subscription does the first
      // payment save the card for the renewals (setup_future_usage=off_session).
      const pi = this.createIntent(invoice, customer, pmId ?? null, 'Subscription creation', {
        saveForLater: sub.payment_settings.save_default_payment_method === 'on_subscription',
      });
      if (behaviour !== 'default_incomplete') outcome = this.attempt(pi, invoice, { authenticated: false });
      else pi.status = pmId ? 'requires_confirmation' : 'requires_payment_method';
    }

    if (behaviour === 'error_if_incomplete' && outcome !== 'succeeded') {
      // Nothing is kept: Stripe answers 402 and the subscription never exists.
      this.forgetInvoice(invoice);
      throw outcome === 'requires_action'
        ? StripeSimError.cardDeclined({
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          })
        : StripeSimError.cardDeclined();
    }

    if (outcome === 'succeeded') sub.status = 'active';
    this.state.subscriptions.set(sub.id, sub);
    this.ctx.emit('customer.subscription.created', clone(sub));
    this.emitInvoiceOutcome(invoice, outcome);
    return sub;
  }

  private buildItem(subId: string, raw: FormObject, index: number, now: number): SubscriptionItem {
    const priceId = optString(raw, 'price');
    if (!priceId) throw StripeSimError.missing(`items[${index}][price]`);
    const price = this.price(priceId, `items[${index}][price]`);
    if (!price.recurring) {
      throw StripeSimError.invalid(
        `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
        `items[${index}][price]`,
      );
    }
    if (!price.active) {
      throw StripeSimError.invalid(
        `The price specified is inactive. This field only accepts active prices.`,
        `items[${index}][price]`,
      );
    }
    const quantity = optInt(raw, 'quantity') ?? 1;
    return {
      id: newId('si', 14),
      object: 'subscription_item',
      billing_thresholds: null,
      created: now,
      current_period_end: addInterval(now, price.recurring.interval, price.recurring.interval_count),
      current_period_start: now,
      discounts: [],
      metadata: applyMetadata({}, raw),
      plan: planFromPrice(price),
      price: clone(price),
      quantity,
      subscription: subId,
      tax_rates: [],
    };
  }

  updateSubscription(id: string, params: FormObject): Subscription {
    const sub = this.subscription(id);
    const keys = Object.keys(params).filter((k) => k !== 'expand');
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      if (keys.some((k) => k !== 'metadata' && k !== 'cancellation_details')) {
        throw StripeSimError.invalid(
          'A canceled subscription can only update its cancellation_details and metadata.',
          undefined,
          'resource_missing',
        );
      }
    } else if (sub.status === 'incomplete') {
      if (keys.some((k) => !['metadata', 'default_payment_method', 'payment_behavior'].includes(k))) {
        throw StripeSimError.invalid(
          'A subscription with status `incomplete` can only update its metadata and default_payment_method until its first invoice is paid.',
        );
      }
    }
    const paymentBehavior = optString(params, 'payment_behavior') ?? 'allow_incomplete';
    if (
      !['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'].includes(
        paymentBehavior,
      )
    ) {
      throw StripeSimError.invalid(
        'Invalid payment_behavior: must be one of allow_incomplete, default_incomplete, error_if_incomplete, or pending_if_incomplete',
        'payment_behavior',
      );
    }
    if (paymentBehavior === 'pending_if_incomplete') {
      const other = keys.find((k) => !PENDING_UPDATE_PARAMS.includes(k));
      if (other) {
        throw StripeSimError.invalid(
          `When \`payment_behavior=pending_if_incomplete\`, you can only pass the parameters supported by pending updates: ${other} is not supported.`,
          other,
        );
      }
    }
    const behavior = this.prorationBehavior(params);
    const prorationDate = optInt(params, 'proration_date');
    const itemParams = optArray(params, 'items');
    if (prorationDate !== undefined && !itemParams) {
      throw StripeSimError.invalid('proration_date can only be set when items change.', 'proration_date');
    }
    const before = clone(sub);
    sub.metadata = applyMetadata(sub.metadata, params);
    const pmId = optString(params, 'default_payment_method');
    if (pmId !== undefined) {
      if (pmId) this.requireAttached(pmId, sub.customer, 'default_payment_method');
      sub.default_payment_method = pmId || null;
    }
    const cancelAtPeriodEnd = optBool(params, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined) {
      sub.cancel_at_period_end = cancelAtPeriodEnd;
      sub.cancel_at = cancelAtPeriodEnd ? sub.items.data[0].current_period_end : null;
      if (cancelAtPeriodEnd)
        sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' };
      else sub.cancellation_details = { comment: null, feedback: null, reason: null };
    }
    let invoice: Invoice | null = null;
    let outcome: ChargeOutcome | 'not_attempted' = 'not_attempted';
    if (itemParams) {
      const at = this.prorationDate(sub, prorationDate, behavior);
      const oldItems = clone(sub.items);
      this.applyItemChanges(sub, itemParams);
      const prorations = behavior === 'none' ? [] : this.prorationLines(oldItems.data, sub.items.data, at);
      // create_prorations: Stripe keeps them as pending invoice items for the next invoice; the
      // stand-in does not bill those. always_invoice bills them now, on an invoice of their own.
      if (behavior === 'always_invoice' && prorations.length > 0) {
        const customer = this.customer(sub.customer);
        const periodEnd = sub.items.data[0].current_period_end;
        invoice = this.createInvoice(sub, customer, 'subscription_update', at, periodEnd, {
          lines: prorations,
        });
        if (invoice.amount_due === 0) {
          this.markInvoicePaid(invoice);
          outcome = 'succeeded';
        } else {
          const chargePm = sub.default_payment_method ?? customer.invoice_settings.default_payment_method;
          const pi = this.createIntent(invoice, customer, chargePm, 'Subscription update');
          outcome = chargePm ? this.attempt(pi, invoice, { authenticated: false }) : 'declined';
        }
        if (outcome !== 'succeeded') {
          if (paymentBehavior === 'error_if_incomplete') {
            sub.items = oldItems;
            this.forgetInvoice(invoice);
            throw outcome === 'requires_action'
              ? StripeSimError.cardDeclined({
                  code: 'authentication_required',
                  decline_code: 'authentication_required',
                  message: 'Your card was declined. This transaction requires authentication.',
                })
              : StripeSimError.cardDeclined();
          }
          if (paymentBehavior === 'pending_if_incomplete') {
            // The change waits for the invoice: the subscription goes on as it was.
            sub.pending_update = {
              billing_cycle_anchor: null,
              expires_at: this.ctx.now() + PENDING_UPDATE_TTL,
              subscription_items: clone(sub.items.data),
              trial_end: null,
              trial_from_plan: null,
            };
            sub.items = oldItems;
          } else {
            sub.status = 'past_due';
          }
        }
        sub.latest_invoice = invoice.id;
      }
    }
    const previous = changedFields(before, sub);
    if (previous) this.ctx.emit('customer.subscription.updated', clone(sub), previous);
    if (invoice) this.emitInvoiceOutcome(invoice, outcome);
    return sub;
  }

  private prorationBehavior(params: FormObject): ProrationBehavior {
    const value = optString(params, 'proration_behavior') ?? 'create_prorations';
    if (!(PRORATION_BEHAVIORS as readonly string[]).includes(value)) {
      throw StripeSimError.invalid(
        'Invalid proration_behavior: must be one of always_invoice, create_prorations, or none',
        'proration_behavior',
      );
    }
    return value as ProrationBehavior;
  }

  /** The proration date: now unless given; a given one must lie inside the current period. */
  private prorationDate(
    sub: Subscription,
    given: number | undefined,
    behavior: ProrationBehavior,
    param = 'proration_date',
  ): number {
    if (given === undefined) return this.ctx.now();
    if (behavior === 'none') {
      throw StripeSimError.invalid('proration_date cannot be set when proration_behavior is none.', param);
    }
    const item = sub.items.data[0];
    if (given < item.current_period_start || given >= item.current_period_end) {
      throw StripeSimError.invalid(
        'The proration date must be within the current subscription period.',
        param,
      );
    }
    return given;
  }

  /** Unused time on what changed, credited; remaining time on what replaces it, charged. */
  private prorationLines(oldItems: SubscriptionItem[], newItems: SubscriptionItem[], at: number): LineSpec[] {
    const lines: LineSpec[] = [];
    const same = (a: SubscriptionItem, b: SubscriptionItem) =>
      a.price.id === b.price.id && a.quantity === b.quantity;
    for (const old of oldItems) {
      const now = newItems.find((it) => it.id === old.id);
      if (now && same(old, now)) continue;
      const period = { start: at, end: old.current_period_end };
      const { credit, debit } = prorate({
        oldAmount: old.price.unit_amount * old.quantity,
        newAmount: now ? now.price.unit_amount * now.quantity : 0,
        periodStart: old.current_period_start,
        periodEnd: old.current_period_end,
        at,
      });
      lines.push({ item: old, amount: credit, period, proration: true });
      if (now) lines.push({ item: now, amount: debit, period, proration: true });
    }
    for (const added of newItems) {
      if (oldItems.some((it) => it.id === added.id)) continue;
      const { debit } = prorate({
        oldAmount: 0,
        newAmount: added.price.unit_amount * added.quantity,
        periodStart: added.current_period_start,
        periodEnd: added.current_period_end,
        at,
      });
      lines.push({
        item: added,
        amount: debit,
        period: { start: at, end: added.current_period_end },
        proration: true,
      });
    }
    return lines;
  }

  /**
   * POST /v1/invoices/create_preview: the invoice a subscription change would make, computed as
   * the update would compute it (same proration date, same behaviour), without changing anything.
   * With always_invoice that is the invoice billed at once (the prorations only); otherwise the
   * next renewal invoice, prorations included.
   */
  previewInvoice(params: FormObject): Invoice {
    const subId = optString(params, 'subscription');
    const customerId = optString(params, 'customer');
    if (!subId && !customerId) {
      throw StripeSimError.invalid(
        'You must specify one of customer, customer_details, subscription, or schedule.',
      );
    }
    const details = optObject(params, 'subscription_details') ?? {};
    if (!subId)
      throw StripeSimError.invalid('The stand-in only previews existing subscriptions.', 'subscription');
    const live = this.subscription(subId);
    if (customerId && live.customer !== customerId) {
      throw StripeSimError.invalid(
        `The subscription ${subId} does not belong to the customer ${customerId}.`,
        'subscription',
      );
    }
    if (live.status === 'canceled' || live.status === 'incomplete_expired') {
      throw StripeSimError.invalid(
        'You cannot preview the upcoming invoice for a canceled subscription.',
        'subscription',
        'invoice_upcoming_none',
      );
    }
    const customer = this.customer(live.customer);
    const behavior = this.prorationBehavior(details);
    const prorationDate = optInt(details, 'proration_date');
    const itemParams = optArray(details, 'items');
    if (prorationDate !== undefined && !itemParams) {
      throw StripeSimError.invalid(
        'subscription_details[proration_date] requires subscription_details[items].',
        'subscription_details[proration_date]',
      );
    }
    const sub = clone(live);
    const at = this.prorationDate(sub, prorationDate, behavior, 'subscription_details[proration_date]');
    const oldItems = clone(sub.items.data);
    if (itemParams) this.applyItemChanges(sub, itemParams);
    const cancelAtPeriodEnd = optBool(details, 'cancel_at_period_end') ?? sub.cancel_at_period_end;
    const prorations = behavior === 'none' ? [] : this.prorationLines(oldItems, sub.items.data, at);
    const periodEnd = sub.items.data[0].current_period_end;
    if (behavior === 'always_invoice' && prorations.length > 0) {
      return this.createInvoice(sub, customer, 'subscription_update', at, periodEnd, {
        lines: prorations,
        preview: true,
        prorationDate: itemParams ? at : undefined,
      });
    }
    if (cancelAtPeriodEnd && prorations.length === 0) {
      throw StripeSimError.invalid(
        'No upcoming invoices for this subscription: it is set to cancel at the end of the period.',
        'subscription',
        'invoice_upcoming_none',
      );
    }
    const next = sub.items.data.map((item) => {
      const r = item.price.recurring ?? { interval: 'month' as Interval, interval_count: 1 };
      return {
        item,
        amount: cancelAtPeriodEnd ? 0 : item.price.unit_amount * item.quantity,
        period: { start: periodEnd, end: addInterval(periodEnd, r.interval, r.interval_count) },
        proration: false,
      };
    });
    return this.createInvoice(sub, customer, 'subscription_cycle', periodEnd, next[0].period.end, {
      lines: [...prorations, ...(cancelAtPeriodEnd ? [] : next)],
      preview: true,
      prorationDate: itemParams ? at : undefined,
    });
  }

  /**
   * POST /v1/invoices/:id/void: an open invoice is voided, its PaymentIntent canceled, the balance
   * it used given back; a pending update that waited for it is discarded.
   */
  voidInvoice(id: string): Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open') {
      throw StripeSimError.invalid(
        `You can only void open invoices. This invoice is ${invoice.status}.`,
        undefined,
        'invoice_not_editable',
      );
    }
    invoice.status = 'void';
    invoice.amount_remaining = 0;
    const piId = this.state.invoiceIntent.get(invoice.id);
    const pi = piId ? this.state.paymentIntents.get(piId) : undefined;
    if (pi && pi.status !== 'succeeded') {
      pi.status = 'canceled';
      pi.canceled_at = this.ctx.now();
      pi.next_action = null;
    }
    const customer = this.state.customers.get(invoice.customer);
    if (customer && invoice.ending_balance !== null) {
      customer.balance += invoice.starting_balance - invoice.ending_balance;
    }
    const sub = this.state.subscriptions.get(invoice.parent.subscription_details.subscription);
    if (sub?.pending_update && sub.latest_invoice === invoice.id) {
      const before = clone(sub);
      sub.pending_update = null;
      this.ctx.emit('customer.subscription.updated', clone(sub), changedFields(before, sub) ?? {});
    }
    this.ctx.emit('invoice.voided', clone(invoice));
    return invoice;
  }

  /**
   * Plan changes swap the item's price and keep the period. Stripe would also create proration
   * invoice items (charged on the next invoice); the stand-in does not bill prorations.
   */
  private applyItemChanges(sub: Subscription, itemParams: FormObject[] | unknown[]): void {
    const now = this.ctx.now();
    itemParams.forEach((raw, i) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        throw StripeSimError.invalid(`Invalid hash: items[${i}]`);
      }
      const item = raw as FormObject;
      const itemId = optString(item, 'id');
      if (itemId) {
        const existing = sub.items.data.find((it) => it.id === itemId);
        if (!existing) throw StripeSimError.noSuch('subscription item', itemId, `items[${i}][id]`);
        if (optBool(item, 'deleted') === true) {
          sub.items.data = sub.items.data.filter((it) => it.id !== itemId);
          return;
        }
        const priceId = optString(item, 'price');
        if (priceId) {
          const price = this.price(priceId, `items[${i}][price]`);
          existing.price = clone(price);
          existing.plan = planFromPrice(price);
        }
        const quantity = optInt(item, 'quantity');
        if (quantity !== undefined) existing.quantity = quantity;
        existing.metadata = applyMetadata(existing.metadata, item);
      } else {
        const added = this.buildItem(sub.id, item, i, now);
        added.current_period_start = sub.items.data[0]?.current_period_start ?? now;
        added.current_period_end = sub.items.data[0]?.current_period_end ?? added.current_period_end;
        sub.items.data.push(added);
      }
    });
    if (sub.items.data.length === 0) {
      throw StripeSimError.invalid('A subscription must have at least one active plan.', 'items');
    }
    sub.items.total_count = sub.items.data.length;
  }

  cancelSubscription(id: string, params: FormObject): Subscription {
    const sub = this.subscription(id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      // Stripe treats a canceled subscription as deleted here.
      throw new StripeSimError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such subscription: '${id}'`,
      });
    }
    const now = this.ctx.now();
    const details = optObject(params, 'cancellation_details');
    sub.status = 'canceled';
    sub.canceled_at = now;
    sub.ended_at = now;
    sub.cancellation_details = {
      comment: (details && optString(details, 'comment')) || null,
      feedback: (details && optString(details, 'feedback')) || null,
      reason: 'cancellation_requested',
    };
    this.voidOpenInvoice(sub);
    // Like Stripe, a deleted event carries the final object and no previous_attributes.
    this.ctx.emit('customer.subscription.deleted', clone(sub));
    return sub;
  }

  /**
   * Control: the subscription reaches the end of its period. With cancel_at_period_end it ends
   * (customer.subscription.deleted); otherwise a renewal invoice is charged off-session.
   */
  advanceSubscription(id: string): Subscription {
    const sub = this.subscription(id);
    if (sub.status !== 'active' && sub.status !== 'past_due') {
      throw StripeSimError.invalid(
        `Only active or past_due subscriptions can advance (this one is ${sub.status}).`,
      );
    }
    const before = clone(sub);
    const periodEnd = sub.items.data[0].current_period_end;
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      sub.canceled_at = sub.canceled_at ?? this.ctx.now();
      sub.ended_at = periodEnd;
      this.ctx.emit('customer.subscription.deleted', clone(sub));
      return sub;
    }
    for (const item of sub.items.data) {
      const r = item.price.recurring ?? { interval: 'month' as Interval, interval_count: 1 };
      item.current_period_start = periodEnd;
      item.current_period_end = addInterval(periodEnd, r.interval, r.interval_count);
    }
    const customer = this.customer(sub.customer);
    const invoice = this.createInvoice(
      sub,
      customer,
      'subscription_cycle',
      periodEnd,
      sub.items.data[0].current_period_end,
    );
    sub.latest_invoice = invoice.id;
    let outcome: ChargeOutcome = 'succeeded';
    if (invoice.amount_due === 0) this.markInvoicePaid(invoice);
    else {
      const pmId = sub.default_payment_method ?? customer.invoice_settings.default_payment_method;
      const pi = this.createIntent(invoice, customer, pmId, 'Subscription update');
      outcome = pmId ? this.attempt(pi, invoice, { authenticated: false }) : 'declined';
    }
    sub.status = outcome === 'succeeded' ? 'active' : 'past_due';
    this.ctx.emit('customer.subscription.updated', clone(sub), changedFields(before, sub) ?? {});
    this.emitInvoiceOutcome(invoice, outcome);
    return sub;
  }

  // ---------- invoices and payment intents ----------

  /**
   * An invoice for the subscription: its items for the period, or the given `lines` (prorations).
   * The customer's balance applies as on Stripe: a credit lowers amount_due (never below 0), what
   * is left of a negative total goes back to the balance. A `preview` is neither numbered nor
   * stored, and leaves the balance as it is.
   */
  private createInvoice(
    sub: Subscription,
    customer: Customer,
    reason: Invoice['billing_reason'],
    periodStart: number,
    periodEnd: number,
    opts: { lines?: LineSpec[]; preview?: boolean; prorationDate?: number } = {},
  ): Invoice {
    const now = this.ctx.now();
    const id = opts.preview ? `upcoming_${newId('in')}` : newId('in');
    const specs: LineSpec[] =
      opts.lines ??
      sub.items.data.map((item) => ({
        item,
        amount: item.price.unit_amount * item.quantity,
        period: { start: periodStart, end: periodEnd },
        proration: false,
      }));
    const lines = specs.map((spec) => this.invoiceLine(id, sub, spec));
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const startingBalance = customer.balance;
    const amountDue = Math.max(0, total + startingBalance);
    const endingBalance = Math.min(0, total + startingBalance);
    if (!opts.preview) customer.balance = endingBalance;
    const number = opts.preview
      ? null
      : `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`;
    if (!opts.preview) customer.next_invoice_sequence += 1;
    const invoice: Invoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Stripe stand-in',
      amount_due: amountDue,
      amount_overpaid: 0,
      amount_paid: 0,
      amount_remaining: amountDue,
      amount_shipping: 0,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now,
      currency: sub.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      default_payment_method: null,
      description: null,
      discounts: [],
      due_date: null,
      effective_at: opts.preview ? null : now,
      ending_balance: opts.preview ? null : endingBalance,
      starting_balance: startingBalance,
      hosted_invoice_url: opts.preview ? null : `${this.ctx.baseUrl()}/_sim/invoices/${id}`,
      invoice_pdf: null,
      last_finalization_error: null,
      lines: list(lines, `/v1/invoices/${id}/lines`),
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          metadata: { ...sub.metadata },
          subscription: sub.id,
          ...(opts.preview && opts.prorationDate !== undefined
            ? { subscription_proration_date: opts.prorationDate }
            : {}),
        },
      },
      period_end: periodEnd,
      period_start: periodStart,
      status: opts.preview ? 'draft' : 'open',
      status_transitions: {
        finalized_at: opts.preview ? null : now,
        marked_uncollectible_at: null,
        paid_at: null,
        voided_at: null,
      },
      subtotal: total,
      subtotal_excluding_tax: total,
      total,
      total_excluding_tax: total,
      webhooks_delivered_at: opts.preview ? null : now,
    };
    if (!opts.preview) this.state.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private invoiceLine(invoiceId: string, sub: Subscription, spec: LineSpec): InvoiceLine {
    const { item, amount, period, proration } = spec;
    const price = item.price;
    const productName = this.state.products.get(price.product)?.name ?? price.product;
    const interval = price.recurring?.interval ?? 'month';
    const after = new Date(period.start * 1000).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const description = !proration
      ? `${item.quantity} × ${productName} (at ${formatAmount(price.unit_amount, price.currency)} / ${interval})`
      : amount < 0
        ? `Unused time on ${item.quantity} × ${productName} after ${after}`
        : `Remaining time on ${item.quantity} × ${productName} after ${after}`;
    return {
      id: newId('il'),
      object: 'line_item',
      amount,
      currency: price.currency,
      description,
      discount_amounts: [],
      discountable: !proration,
      discounts: [],
      invoice: invoiceId,
      livemode: false,
      metadata: {},
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration,
          proration_details: { credited_items: null },
          subscription: sub.id,
          subscription_item: item.id,
        },
      },
      period: { ...period },
      pretax_credit_amounts: [],
      pricing: {
        type: 'price_details',
        price_details: { price: price.id, product: price.product },
        unit_amount_decimal: price.unit_amount_decimal,
      },
      quantity: item.quantity,
      taxes: [],
    };
  }

  private createIntent(
    invoice: Invoice,
    customer: Customer,
    pmId: string | null,
    description: string,
    opts: { saveForLater?: boolean } = {},
  ): PaymentIntent {
    const id = newId('pi');
    const pi: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount: invoice.amount_due,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic',
      client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
      confirmation_method: 'automatic',
      created: this.ctx.now(),
      currency: invoice.currency,
      customer: customer.id,
      description,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: {},
      next_action: null,
      payment_method: pmId,
      payment_method_types: ['card'],
      setup_future_usage: opts.saveForLater ? 'off_session' : null,
      status: 'requires_payment_method',
    };
    this.state.paymentIntents.set(id, pi);
    this.state.invoiceIntent.set(invoice.id, id);
    this.state.intentInvoice.set(id, invoice.id);
    return pi;
  }

  private forgetInvoice(invoice: Invoice): void {
    const customer = this.state.customers.get(invoice.customer);
    if (customer && invoice.ending_balance !== null) customer.balance = invoice.starting_balance;
    const piId = this.state.invoiceIntent.get(invoice.id);
    this.state.invoices.delete(invoice.id);
    this.state.invoiceIntent.delete(invoice.id);
    if (piId) {
      this.state.paymentIntents.delete(piId);
      this.state.intentInvoice.delete(piId);
    }
  }

  private voidOpenInvoice(sub: Subscription): void {
    const invoice = sub.latest_invoice ? this.state.invoices.get(sub.latest_invoice) : undefined;
    if (invoice?.status !== 'open' || invoice.billing_reason !== 'subscription_create') return;
    invoice.status = 'void';
    const piId = this.state.invoiceIntent.get(invoice.id);
    const pi = piId ? this.state.paymentIntents.get(piId) : undefined;
    if (pi && pi.status !== 'succeeded') {
      pi.status = 'canceled';
      pi.canceled_at = this.ctx.now();
      pi.next_action = null;
    }
  }

  /** Charges the intent's card once. `authenticated` means the customer just passed 3-D Secure. */
  private attempt(pi: PaymentIntent, invoice: Invoice, opts: { authenticated: boolean }): ChargeOutcome {
    invoice.attempted = true;
    invoice.attempt_count += 1;
    const behaviour: CardBehaviour = pi.payment_method
      ? (this.state.cardBehaviour.get(pi.payment_method) ?? 'succeeds')
      : 'declined_on_charge';
    const pmId = pi.payment_method;
    const setUp = pmId !== null && this.state.offSessionReady.has(pmId);
    // 3184 asks every time; 3155 asks until it has been set up for off-session use.
    const asks =
      behaviour === 'authentication_required' ||
      (behaviour === 'authentication_required_unless_set_up' && !setUp);
    const charges =
      behaviour === 'succeeds' ||
      behaviour === 'authentication_required' ||
      behaviour === 'authentication_required_unless_set_up';
    if (charges && (!asks || opts.authenticated)) {
      // A payment made with setup_future_usage=off_session sets the card up for later charges.
      if (pmId && pi.setup_future_usage === 'off_session') this.state.offSessionReady.add(pmId);
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
      pi.latest_charge = newId('ch');
      pi.next_action = null;
      pi.last_payment_error = null;
      this.markInvoicePaid(invoice);
      return 'succeeded';
    }
    if (charges && asks) {
      pi.status = 'requires_action';
      pi.next_action = {
        type: 'use_stripe_sdk',
        use_stripe_sdk: {
          type: 'three_d_secure_redirect',
          source: newId('src'),
          stripe_js: `${this.ctx.baseUrl()}/_sim/3ds/${pi.id}`,
        },
      };
      return 'requires_action';
    }
    this.decline(pi, invoice, DECLINE);
    return 'declined';
  }

  private decline(pi: PaymentIntent, invoice: Invoice, error: typeof DECLINE): void {
    pi.status = 'requires_payment_method';
    pi.next_action = null;
    pi.last_payment_error = {
      ...error,
      payment_method: pi.payment_method ? clone(this.state.paymentMethods.get(pi.payment_method)) : null,
    };
    // Stripe retries renewals (Smart Retries); a first invoice waits for the customer instead.
    invoice.next_payment_attempt =
      invoice.billing_reason === 'subscription_create' ? null : this.ctx.now() + 3 * 86_400;
  }

  private markInvoicePaid(invoice: Invoice): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = this.ctx.now();
  }

  private emitInvoiceOutcome(invoice: Invoice, outcome: ChargeOutcome | 'not_attempted'): void {
    if (outcome === 'succeeded') this.ctx.emit('invoice.paid', clone(invoice));
    else if (outcome === 'requires_action') this.ctx.emit('invoice.payment_action_required', clone(invoice));
    else if (outcome === 'declined') this.ctx.emit('invoice.payment_failed', clone(invoice));
  }

  /**
   * POST /v1/payment_intents/:id/confirm. With a publishable key this is Stripe.js after the
   * customer went through the 3-D Secure challenge, whose outcome is `state.authenticationResult`.
   * With a secret key no customer is present, so a card that needs authentication stays
   * `requires_action`, as on Stripe.
   */
  confirmPaymentIntent(id: string, params: FormObject, via: 'publishable' | 'secret'): PaymentIntent {
    const pi = this.paymentIntent(id);
    if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing') {
      throw new StripeSimError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`,
        payment_intent: clone(pi),
      });
    }
    const invoiceId = this.state.intentInvoice.get(pi.id);
    const invoice = invoiceId ? this.invoice(invoiceId) : null;
    if (!invoice) throw StripeSimError.invalid('This PaymentIntent does not belong to an invoice.');
    const newPm = optString(params, 'payment_method');
    if (newPm) pi.payment_method = this.usablePaymentMethod(newPm, pi.customer).id;

    let outcome: ChargeOutcome;
    if (pi.status === 'requires_action' && !newPm) {
      if (via === 'secret') return pi;
      outcome = this.authenticate(pi, invoice);
    } else {
      if (!pi.payment_method) {
        throw StripeSimError.invalid(
          'You cannot confirm this PaymentIntent because it\u2019s missing a payment method. To confirm the PaymentIntent with a payment method, update it first or pass payment_method.',
          undefined,
          'payment_intent_unexpected_state',
        );
      }
      outcome = this.attempt(pi, invoice, { authenticated: false });
      if (outcome === 'requires_action' && via === 'publishable') outcome = this.authenticate(pi, invoice);
    }
    // The PaymentIntent has succeeded now; the subscription turns active (and invoice.paid is
    // sent) a moment later, as on Stripe, so nobody may rely on it within this call.
    const delay = this.state.activationDelayMs;
    if (outcome === 'succeeded' && delay > 0 && this.ctx.later) {
      const invoiceId = invoice.id;
      this.ctx.later(delay, (billing) =>
        billing.afterInvoicePayment(billing.invoice(invoiceId), 'succeeded'),
      );
    } else this.afterInvoicePayment(invoice, outcome);
    return pi;
  }

  private authenticate(pi: PaymentIntent, invoice: Invoice): ChargeOutcome {
    if (this.state.authenticationResult === 'succeed')
      return this.attempt(pi, invoice, { authenticated: true });
    invoice.attempt_count += 1;
    this.decline(pi, invoice, AUTHENTICATION_FAILURE);
    return 'declined';
  }

  /** A PaymentMethod the intent may use: magic ids become real ones, as when Stripe.js creates them. */
  private usablePaymentMethod(pmId: string, customerId: string | null): PaymentMethod {
    const magic = TEST_CARDS[pmId];
    if (magic) {
      if (magic.behaviour === 'declined_on_attach' && customerId)
        throw StripeSimError.cardDeclined({ param: '' });
      const pm = this.storeCard(magic);
      if (customerId) pm.customer = customerId;
      return pm;
    }
    const pm = this.state.paymentMethods.get(pmId);
    if (!pm) throw StripeSimError.noSuch('PaymentMethod', pmId, 'payment_method');
    return pm;
  }

  afterInvoicePayment(invoice: Invoice, outcome: ChargeOutcome): void {
    const subId = invoice.parent.subscription_details.subscription;
    const sub = this.state.subscriptions.get(subId);
    this.emitInvoiceOutcome(invoice, outcome);
    if (!sub || outcome !== 'succeeded') return;
    const before = clone(sub);
    if (sub.status === 'incomplete' || sub.status === 'past_due') sub.status = 'active';
    // A pending update is applied once the invoice it waited for is paid.
    if (sub.pending_update?.subscription_items && sub.latest_invoice === invoice.id) {
      sub.items.data = sub.pending_update.subscription_items;
      sub.items.total_count = sub.items.data.length;
      sub.pending_update = null;
    }
    const previous = changedFields(before, sub);
    if (previous) this.ctx.emit('customer.subscription.updated', clone(sub), previous);
  }

  // ---------- setup intents ----------

  setupIntent(id: string): SetupIntent {
    const si = this.state.setupIntents.get(id);
    if (!si) throw StripeSimError.noSuch('setup_intent', id, 'intent');
    return si;
  }

  /** POST /v1/setup_intents: saves a card for later (off-session) charges. */
  createSetupIntent(params: FormObject): SetupIntent {
    const customerId = optString(params, 'customer');
    if (customerId) this.customer(customerId, 'customer');
    const usage = optString(params, 'usage') ?? 'off_session';
    if (usage !== 'off_session' && usage !== 'on_session')
      throw StripeSimError.invalid(`Invalid usage: must be one of off_session or on_session`, 'usage');
    const id = newId('seti');
    const si: SetupIntent = {
      id,
      object: 'setup_intent',
      application: null,
      cancellation_reason: null,
      client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
      created: this.ctx.now(),
      customer: customerId ?? null,
      description: optString(params, 'description') ?? null,
      last_setup_error: null,
      latest_attempt: null,
      livemode: false,
      metadata: applyMetadata({}, params),
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      status: 'requires_payment_method',
      usage,
    };
    this.state.setupIntents.set(id, si);
    this.ctx.emit('setup_intent.created', clone(si));
    return si;
  }

  /**
   * POST /v1/setup_intents/:id/confirm (Stripe.js confirmCardSetup): the card is attached to the
   * customer; a card that asks for 3-D Secure goes through the challenge (state.authenticationResult),
   * and once set up it is charged off-session without asking again.
   */
  confirmSetupIntent(id: string, params: FormObject, via: 'publishable' | 'secret'): SetupIntent {
    const si = this.setupIntent(id);
    if (si.status === 'succeeded' || si.status === 'canceled') {
      throw new StripeSimError(400, {
        type: 'invalid_request_error',
        code: 'setup_intent_unexpected_state',
        message: `You cannot confirm this SetupIntent because it has a status of ${si.status}.`,
        setup_intent: clone(si),
      });
    }
    const pmId = optString(params, 'payment_method') ?? si.payment_method;
    if (!pmId)
      throw StripeSimError.invalid(
        'You must provide a payment_method to confirm this SetupIntent.',
        'payment_method',
      );
    const pm = this.usablePaymentMethod(pmId, null);
    si.payment_method = pm.id;
    si.latest_attempt = newId('setatt');
    const behaviour = this.state.cardBehaviour.get(pm.id) ?? 'succeeds';
    if (behaviour === 'declined_on_attach' || behaviour === 'declined_on_charge') {
      si.status = 'requires_payment_method';
      si.last_setup_error = { ...DECLINE, payment_method: clone(pm) };
      this.ctx.emit('setup_intent.setup_failed', clone(si));
      return si;
    }
    if (behaviour !== 'succeeds') {
      // Both 3-D Secure cards ask during setup; only a customer (Stripe.js) can answer.
      if (via === 'secret') {
        si.status = 'requires_action';
        si.next_action = {
          type: 'use_stripe_sdk',
          use_stripe_sdk: {
            type: 'three_d_secure_redirect',
            stripe_js: `${this.ctx.baseUrl()}/_sim/3ds/${si.id}`,
          },
        };
        return si;
      }
      if (this.state.authenticationResult !== 'succeed') {
        si.status = 'requires_payment_method';
        si.next_action = null;
        si.last_setup_error = { ...AUTHENTICATION_FAILURE, payment_method: clone(pm) };
        this.ctx.emit('setup_intent.setup_failed', clone(si));
        return si;
      }
    }
    if (si.customer) {
      if (pm.customer && pm.customer !== si.customer) {
        throw StripeSimError.invalid(
          'The payment method you provided has already been attached to a customer.',
          undefined,
          'payment_method_unexpected_state',
        );
      }
      if (pm.customer !== si.customer) {
        pm.customer = si.customer;
        this.ctx.emit('payment_method.attached', clone(pm));
      }
    }
    if (si.usage === 'off_session') this.state.offSessionReady.add(pm.id);
    si.status = 'succeeded';
    si.next_action = null;
    si.last_setup_error = null;
    this.ctx.emit('setup_intent.succeeded', clone(si));
    return si;
  }

  setAuthenticationResult(result: 'succeed' | 'fail'): void {
    this.state.authenticationResult = result;
  }
}

/** Stripe's `previous_attributes`: the old values of the top-level fields that changed. */
function changedFields<T extends object>(before: T, after: T): Record<string, unknown> | null {
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key as string] = before[key];
  }
  return Object.keys(previous).length > 0 ? previous : null;
}
