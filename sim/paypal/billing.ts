/**
 * The PayPal stand-in's behaviour: catalog products, monthly plans, subscriptions that wait for
 * the buyer's approval (APPROVAL_PENDING → ACTIVE, or stay pending when the buyer cancels), and
 * cancellation. Validation answers in PayPal's error shape. No HTTP here.
 */
import {
  type Approval,
  addMonths,
  type BillingCycle,
  isoTime,
  type Link,
  type PaypalPlan,
  type PaypalProduct,
  type PaypalSimState,
  type PaypalSubscription,
  payerId,
  paypalId,
  type WebhookEvent,
} from './state';

export interface PaypalErrorDetail {
  field?: string;
  value?: string;
  location?: string;
  issue: string;
  description: string;
}

export class PaypalSimError extends Error {
  constructor(
    readonly status: number,
    /** PayPal's error name: INVALID_REQUEST, RESOURCE_NOT_FOUND, UNPROCESSABLE_ENTITY, … */
    readonly errorName: string,
    message: string,
    readonly details: PaypalErrorDetail[] = [],
  ) {
    super(message);
  }

  static invalid(details: PaypalErrorDetail[]): PaypalSimError {
    return new PaypalSimError(
      400,
      'INVALID_REQUEST',
      'Request is not well-formed, syntactically incorrect, or violates schema.',
      details,
    );
  }

  static missing(field: string): PaypalSimError {
    return PaypalSimError.invalid([
      {
        field: `/${field}`,
        location: 'body',
        issue: 'MISSING_REQUIRED_PARAMETER',
        description: 'A required field / parameter is missing.',
      },
    ]);
  }

  static notFound(): PaypalSimError {
    return new PaypalSimError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [
      {
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
      },
    ]);
  }

  static unprocessable(issue: string, description: string): PaypalSimError {
    return new PaypalSimError(
      422,
      'UNPROCESSABLE_ENTITY',
      'The requested action could not be performed, semantically incorrect, or failed business validation.',
      [{ issue, description }],
    );
  }
}

export interface PaypalBillingContext {
  state: PaypalSimState;
  nowMs(): number;
  baseUrl(): string;
  /** Stores and (after the current answer) delivers an event. */
  emit(event: WebhookEvent): void;
  /** When false, approval leaves a subscription APPROVED until `activate` (tests of the pending path). */
  activateOnApproval(): boolean;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export class PaypalBilling {
  constructor(private readonly ctx: PaypalBillingContext) {}

  private get state() {
    return this.ctx.state;
  }

  private now(): string {
    return isoTime(this.ctx.nowMs());
  }

  // ---------- catalog ----------

  createProduct(body: Json): PaypalProduct {
    const name = str(body.name);
    if (!name) throw PaypalSimError.missing('name');
    const type = str(body.type);
    if (!type) throw PaypalSimError.missing('type');
    if (!['PHYSICAL', 'DIGITAL', 'SERVICE'].includes(type)) {
      throw PaypalSimError.invalid([
        {
          field: '/type',
          location: 'body',
          issue: 'INVALID_PARAMETER_VALUE',
          description: 'The value of a field is invalid.',
        },
      ]);
    }
    const id = str(body.id) ?? paypalId('PROD', 17);
    if (this.state.products.has(id)) {
      throw PaypalSimError.unprocessable(
        'DUPLICATE_RESOURCE_IDENTIFIER',
        'A resource with this id already exists.',
      );
    }
    const now = this.now();
    const product: PaypalProduct = {
      id,
      name,
      ...(str(body.description) ? { description: str(body.description) } : {}),
      type,
      ...(str(body.category) ? { category: str(body.category) } : {}),
      create_time: now,
      update_time: now,
    };
    this.state.products.set(id, product);
    return product;
  }

  productView(product: PaypalProduct) {
    const self = `${this.ctx.baseUrl()}/v1/catalogs/products/${product.id}`;
    return {
      ...product,
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: self, rel: 'edit', method: 'PATCH' },
      ],
    };
  }

  createPlan(body: Json): PaypalPlan {
    const productId = str(body.product_id);
    if (!productId) throw PaypalSimError.missing('product_id');
    if (!this.state.products.has(productId)) {
      throw PaypalSimError.unprocessable('INVALID_PRODUCT_ID', 'Invalid product id.');
    }
    const name = str(body.name);
    if (!name) throw PaypalSimError.missing('name');
    const cycles = Array.isArray(body.billing_cycles) ? (body.billing_cycles as Json[]) : null;
    if (!cycles || cycles.length === 0) throw PaypalSimError.missing('billing_cycles');
    const billingCycles = cycles.map((c, i) => parseCycle(c, i));
    const prefs = (body.payment_preferences ?? {}) as Json;
    const status = str(body.status) ?? 'ACTIVE';
    if (!['CREATED', 'ACTIVE', 'INACTIVE'].includes(status)) {
      throw PaypalSimError.invalid([
        {
          field: '/status',
          location: 'body',
          issue: 'INVALID_PARAMETER_VALUE',
          description: 'The value of a field is invalid.',
        },
      ]);
    }
    const now = this.now();
    const currency = billingCycles[0].pricing_scheme.fixed_price.currency_code;
    const plan: PaypalPlan = {
      id: paypalId('P', 24),
      product_id: productId,
      name,
      ...(str(body.description) ? { description: str(body.description) } : {}),
      status: status as PaypalPlan['status'],
      usage_type: 'LICENSED',
      billing_cycles: billingCycles,
      payment_preferences: {
        service_type: 'PREPAID',
        auto_bill_outstanding: prefs.auto_bill_outstanding !== false,
        setup_fee: { currency_code: currency, value: '0' },
        setup_fee_failure_action: prefs.setup_fee_failure_action === 'CANCEL' ? 'CANCEL' : 'CONTINUE',
        payment_failure_threshold:
          typeof prefs.payment_failure_threshold === 'number' ? prefs.payment_failure_threshold : 0,
      },
      quantity_supported: body.quantity_supported === true,
      create_time: now,
      update_time: now,
    };
    this.state.plans.set(plan.id, plan);
    return plan;
  }

  plan(id: string): PaypalPlan {
    const plan = this.state.plans.get(id);
    if (!plan) throw PaypalSimError.notFound();
    return plan;
  }

  planView(plan: PaypalPlan, minimal: boolean) {
    const self = `${this.ctx.baseUrl()}/v1/billing/plans/${plan.id}`;
    const links: Link[] = [
      { href: self, rel: 'self', method: 'GET' },
      { href: self, rel: 'edit', method: 'PATCH' },
      { href: `${self}/deactivate`, rel: 'self', method: 'POST' },
    ];
    if (minimal) {
      const { id, product_id, name, status, description, usage_type, create_time } = plan;
      return { id, product_id, name, status, description, usage_type, create_time, links };
    }
    return { ...plan, links };
  }

  // ---------- subscriptions ----------

  createSubscription(body: Json): PaypalSubscription {
    const planId = str(body.plan_id);
    if (!planId) throw PaypalSimError.missing('plan_id');
    const plan = this.state.plans.get(planId);
    if (!plan) throw PaypalSimError.notFound();
    if (plan.status !== 'ACTIVE') {
      throw PaypalSimError.unprocessable(
        'PLAN_STATUS_INVALID',
        'Invalid plan status. Plan must be in ACTIVE status.',
      );
    }
    const customId = body.custom_id === undefined ? undefined : str(body.custom_id);
    if (body.custom_id !== undefined && (customId === undefined || customId.length > 127)) {
      throw PaypalSimError.invalid([
        {
          field: '/custom_id',
          location: 'body',
          issue: 'INVALID_STRING_LENGTH',
          description: 'The value of a field is either too short or too long.',
        },
      ]);
    }
    const context = (body.application_context ?? {}) as Json;
    const returnUrl = str(context.return_url);
    const cancelUrl = str(context.cancel_url);
    for (const [field, value] of [
      ['return_url', returnUrl],
      ['cancel_url', cancelUrl],
    ] as const) {
      if (!value) throw PaypalSimError.missing(`application_context/${field}`);
      if (!isHttpUrl(value)) {
        throw PaypalSimError.invalid([
          {
            field: `/application_context/${field}`,
            location: 'body',
            issue: 'INVALID_PARAMETER_SYNTAX',
            description: 'The value of a field does not conform to the expected format.',
          },
        ]);
      }
    }
    const now = this.now();
    const sub: PaypalSubscription = {
      id: paypalId('I', 12),
      plan_id: plan.id,
      status: 'APPROVAL_PENDING',
      status_update_time: now,
      start_time: str(body.start_time) ?? now,
      quantity: str(body.quantity) ?? '1',
      ...(customId !== undefined ? { custom_id: customId } : {}),
      plan_overridden: false,
      create_time: now,
      update_time: now,
    };
    this.state.subscriptions.set(sub.id, sub);
    const approval: Approval = {
      token: paypalId('BA', 17),
      subscriptionId: sub.id,
      returnUrl: returnUrl as string,
      cancelUrl: cancelUrl as string,
      brandName: str(context.brand_name) ?? null,
    };
    this.state.approvals.set(approval.token, approval);
    this.emit('BILLING.SUBSCRIPTION.CREATED', 'Subscription created', sub);
    return sub;
  }

  subscription(id: string): PaypalSubscription {
    const sub = this.state.subscriptions.get(id);
    if (!sub) throw PaypalSimError.notFound();
    return sub;
  }

  approvalFor(subscriptionId: string): Approval | undefined {
    return [...this.state.approvals.values()].find((a) => a.subscriptionId === subscriptionId);
  }

  subscriptionView(sub: PaypalSubscription, minimal: boolean) {
    const self = `${this.ctx.baseUrl()}/v1/billing/subscriptions/${sub.id}`;
    const links: Link[] = [];
    const approval = this.approvalFor(sub.id);
    if (sub.status === 'APPROVAL_PENDING' && approval) {
      links.push({
        href: `${this.ctx.baseUrl()}/checkoutnow?token=${approval.token}`,
        rel: 'approve',
        method: 'GET',
      });
    }
    links.push({ href: self, rel: 'edit', method: 'PATCH' }, { href: self, rel: 'self', method: 'GET' });
    if (sub.status === 'ACTIVE') {
      links.push(
        { href: `${self}/cancel`, rel: 'cancel', method: 'POST' },
        { href: `${self}/suspend`, rel: 'suspend', method: 'POST' },
      );
    }
    if (minimal) {
      const {
        id,
        status,
        status_update_time,
        plan_id,
        plan_overridden,
        start_time,
        quantity,
        custom_id,
        create_time,
      } = sub;
      return {
        id,
        status,
        status_update_time,
        plan_id,
        plan_overridden,
        start_time,
        quantity,
        ...(custom_id !== undefined ? { custom_id } : {}),
        create_time,
        links,
      };
    }
    return { ...sub, links };
  }

  cancelSubscription(id: string, body: Json): void {
    const sub = this.subscription(id);
    const reason = str(body.reason);
    if (!reason) throw PaypalSimError.missing('reason');
    if (sub.status !== 'ACTIVE' && sub.status !== 'SUSPENDED') {
      throw PaypalSimError.unprocessable(
        'SUBSCRIPTION_STATUS_INVALID',
        'Invalid subscription status for cancel action; subscription status should be active or suspended.',
      );
    }
    this.setStatus(sub, 'CANCELLED', reason);
    if (sub.billing_info) delete sub.billing_info.next_billing_time;
    this.emit('BILLING.SUBSCRIPTION.CANCELLED', 'Subscription cancelled', sub);
  }

  /** The buyer pressed Approve: where the browser goes next. */
  approve(token: string): string {
    const approval = this.state.approvals.get(token);
    if (!approval) throw PaypalSimError.notFound();
    const sub = this.subscription(approval.subscriptionId);
    if (sub.status !== 'APPROVAL_PENDING') {
      throw PaypalSimError.unprocessable('SUBSCRIPTION_STATUS_INVALID', `Subscription is ${sub.status}.`);
    }
    const ms = this.ctx.nowMs();
    sub.subscriber = {
      name: { given_name: 'Sim', surname: 'Buyer' },
      email_address: 'sim-buyer@example.com',
      payer_id: payerId(),
    };
    this.setStatus(sub, 'APPROVED');
    if (this.ctx.activateOnApproval()) this.activate(sub.id, ms);
    const url = new URL(approval.returnUrl);
    url.searchParams.set('subscription_id', sub.id);
    url.searchParams.set('ba_token', approval.token);
    url.searchParams.set('token', approval.token);
    return url.toString();
  }

  /**
   * The buyer pressed Cancel on PayPal's page: nothing changes at PayPal (the subscription stays
   * APPROVAL_PENDING and simply never activates), and the browser goes to cancel_url with the
   * approval token only.
   */
  cancelApproval(token: string): string {
    const approval = this.state.approvals.get(token);
    if (!approval) throw PaypalSimError.notFound();
    const url = new URL(approval.cancelUrl);
    url.searchParams.set('ba_token', approval.token);
    url.searchParams.set('token', approval.token);
    return url.toString();
  }

  /** First payment taken, billing starts: ACTIVE with next_billing_time one month on. */
  activate(id: string, ms = this.ctx.nowMs()): PaypalSubscription {
    const sub = this.subscription(id);
    if (sub.status !== 'APPROVED') {
      throw PaypalSimError.unprocessable('SUBSCRIPTION_STATUS_INVALID', `Subscription is ${sub.status}.`);
    }
    const plan = this.plan(sub.plan_id);
    const regular = plan.billing_cycles.find((c) => c.tenure_type === 'REGULAR') ?? plan.billing_cycles[0];
    const price = regular.pricing_scheme.fixed_price;
    const months =
      regular.frequency.interval_unit === 'YEAR'
        ? 12 * regular.frequency.interval_count
        : regular.frequency.interval_unit === 'MONTH'
          ? regular.frequency.interval_count
          : 0;
    const next =
      months > 0
        ? addMonths(ms, months)
        : ms +
          regular.frequency.interval_count *
            (regular.frequency.interval_unit === 'WEEK' ? 7 : 1) *
            86_400_000;
    sub.start_time = isoTime(ms);
    sub.billing_info = {
      outstanding_balance: { currency_code: price.currency_code, value: '0.00' },
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: regular.sequence,
          cycles_completed: 1,
          cycles_remaining: regular.total_cycles === 0 ? 0 : regular.total_cycles - 1,
          total_cycles: regular.total_cycles,
        },
      ],
      last_payment: { amount: { ...price }, time: isoTime(ms) },
      next_billing_time: isoTime(next),
      failed_payments_count: 0,
    };
    this.setStatus(sub, 'ACTIVE');
    this.emit('BILLING.SUBSCRIPTION.ACTIVATED', 'Subscription activated', sub);
    this.emitSale(sub, price.value, price.currency_code, ms);
    return sub;
  }

  /**
   * Control: this cycle's charge is declined (the buyer's funding source refused it). PayPal keeps
   * the subscription ACTIVE, counts the failure, owes the amount and says
   * BILLING.SUBSCRIPTION.PAYMENT.FAILED.
   */
  failPayment(id: string): PaypalSubscription {
    const sub = this.subscription(id);
    if (sub.status !== 'ACTIVE' || !sub.billing_info)
      throw PaypalSimError.unprocessable('SUBSCRIPTION_STATUS_INVALID', `Subscription is ${sub.status}.`);
    const last = sub.billing_info.last_payment?.amount ?? sub.billing_info.outstanding_balance;
    const ms = this.ctx.nowMs();
    sub.billing_info.failed_payments_count += 1;
    sub.billing_info.outstanding_balance = { ...last };
    sub.billing_info.last_failed_payment = {
      amount: { ...last },
      time: isoTime(ms),
      reason_code: 'PAYMENT_DENIED',
      next_payment_retry_time: isoTime(ms + 5 * 86_400_000),
    };
    sub.update_time = isoTime(ms);
    this.emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'Subscription payment failed', sub);
    return sub;
  }

  private setStatus(sub: PaypalSubscription, status: PaypalSubscription['status'], note?: string): void {
    const now = this.now();
    sub.status = status;
    sub.status_update_time = now;
    sub.update_time = now;
    if (note) sub.status_change_note = note;
  }

  private emit(eventType: string, summary: string, sub: PaypalSubscription): void {
    this.emitEvent(eventType, summary, 'subscription', '2.0', this.subscriptionView(sub, false));
  }

  private emitSale(sub: PaypalSubscription, value: string, currency: string, ms: number): void {
    const saleId = paypalId('', 17);
    const self = `${this.ctx.baseUrl()}/v1/payments/sale/${saleId}`;
    this.emitEvent('PAYMENT.SALE.COMPLETED', `Payment completed for $ ${value} ${currency}`, 'sale', '1.0', {
      id: saleId,
      state: 'completed',
      amount: { total: value, currency, details: { subtotal: value } },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      billing_agreement_id: sub.id,
      ...(sub.custom_id !== undefined ? { custom: sub.custom_id } : {}),
      create_time: isoTime(ms),
      update_time: isoTime(ms),
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: `${self}/refund`, rel: 'refund', method: 'POST' },
      ],
    });
  }

  private emitEvent(
    eventType: string,
    summary: string,
    resourceType: string,
    version: string,
    resource: unknown,
  ) {
    const id = `WH-${paypalId('', 17)}-${paypalId('', 17)}`;
    const self = `${this.ctx.baseUrl()}/v1/notifications/webhooks-events/${id}`;
    this.ctx.emit({
      id,
      event_version: '1.0',
      create_time: this.now(),
      resource_type: resourceType,
      resource_version: version,
      event_type: eventType,
      summary,
      resource,
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: `${self}/resend`, rel: 'resend', method: 'POST' },
      ],
    });
  }
}

function parseCycle(raw: Json, index: number): BillingCycle {
  const bad = (field: string) =>
    PaypalSimError.invalid([
      {
        field: `/billing_cycles/${index}/${field}`,
        location: 'body',
        issue: 'INVALID_PARAMETER_VALUE',
        description: 'The value of a field is invalid.',
      },
    ]);
  const frequency = (raw.frequency ?? {}) as Json;
  const unit = str(frequency.interval_unit);
  if (!unit || !['DAY', 'WEEK', 'MONTH', 'YEAR'].includes(unit)) throw bad('frequency/interval_unit');
  const count = frequency.interval_count === undefined ? 1 : frequency.interval_count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1)
    throw bad('frequency/interval_count');
  const tenure = str(raw.tenure_type);
  if (tenure !== 'REGULAR' && tenure !== 'TRIAL') throw bad('tenure_type');
  const sequence = raw.sequence;
  if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1) throw bad('sequence');
  const totalCycles = raw.total_cycles === undefined ? 1 : raw.total_cycles;
  if (typeof totalCycles !== 'number' || !Number.isInteger(totalCycles) || totalCycles < 0)
    throw bad('total_cycles');
  const fixed = ((raw.pricing_scheme ?? {}) as Json).fixed_price as Json | undefined;
  const value = str(fixed?.value);
  const currency = str(fixed?.currency_code);
  if (!value || !/^\d{1,10}(\.\d{1,2})?$/.test(value)) throw bad('pricing_scheme/fixed_price/value');
  if (!currency || !/^[A-Z]{3}$/.test(currency)) throw bad('pricing_scheme/fixed_price/currency_code');
  return {
    frequency: { interval_unit: unit as BillingCycle['frequency']['interval_unit'], interval_count: count },
    tenure_type: tenure,
    sequence,
    total_cycles: totalCycles,
    pricing_scheme: { version: 1, fixed_price: { value, currency_code: currency } },
  };
}
