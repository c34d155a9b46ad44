/**
 * What the PayPal stand-in remembers, in PayPal's REST shapes (Catalog Products v1, Subscriptions
 * v1, Webhooks v1). Times are ISO-8601 strings without milliseconds, as PayPal writes them.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface Money {
  currency_code: string;
  value: string;
}

export interface Link {
  href: string;
  rel: string;
  method: string;
}

export interface PaypalProduct {
  id: string;
  name: string;
  description?: string;
  type: string;
  category?: string;
  create_time: string;
  update_time: string;
}

export interface BillingCycle {
  frequency: { interval_unit: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; interval_count: number };
  tenure_type: 'REGULAR' | 'TRIAL';
  sequence: number;
  total_cycles: number;
  pricing_scheme: { version?: number; fixed_price: Money; create_time?: string; update_time?: string };
}

export interface PaypalPlan {
  id: string;
  product_id: string;
  name: string;
  description?: string;
  status: 'CREATED' | 'ACTIVE' | 'INACTIVE';
  usage_type: 'LICENSED';
  billing_cycles: BillingCycle[];
  payment_preferences: {
    service_type: 'PREPAID';
    auto_bill_outstanding: boolean;
    setup_fee: Money;
    setup_fee_failure_action: 'CONTINUE' | 'CANCEL';
    payment_failure_threshold: number;
  };
  quantity_supported: boolean;
  create_time: string;
  update_time: string;
}

export type SubscriptionStatus =
  | 'APPROVAL_PENDING'
  | 'APPROVED'
  | 'ACTIVE'
  | 'SUSPENDED'
  | 'CANCELLED'
  | 'EXPIRED';

export interface PaypalSubscription {
  id: string;
  plan_id: string;
  status: SubscriptionStatus;
  status_update_time: string;
  status_change_note?: string;
  start_time: string;
  quantity: string;
  custom_id?: string;
  plan_overridden: boolean;
  subscriber?: {
    name: { given_name: string; surname: string };
    email_address: string;
    payer_id: string;
  };
  billing_info?: {
    outstanding_balance: Money;
    cycle_executions: {
      tenure_type: 'REGULAR';
      sequence: number;
      cycles_completed: number;
      cycles_remaining: number;
      total_cycles: number;
    }[];
    last_payment?: { amount: Money; time: string };
    last_failed_payment?: {
      amount: Money;
      time: string;
      reason_code: string;
      next_payment_retry_time: string;
    };
    next_billing_time?: string;
    failed_payments_count: number;
  };
  create_time: string;
  update_time: string;
}

/** Where the buyer goes from the approval page; PayPal keeps this with the approval token. */
export interface Approval {
  token: string;
  subscriptionId: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string | null;
}

export interface WebhookEvent {
  id: string;
  event_version: '1.0';
  create_time: string;
  resource_type: string;
  resource_version?: string;
  event_type: string;
  summary: string;
  resource: unknown;
  links: Link[];
}

export interface Transmission {
  id: string;
  eventId: string;
  time: string;
  webhookId: string;
  url: string;
  status: number | null;
  ok: boolean;
  error: string | null;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface PaypalSimState {
  products: Map<string, PaypalProduct>;
  plans: Map<string, PaypalPlan>;
  subscriptions: Map<string, PaypalSubscription>;
  approvals: Map<string, Approval>;
  /** access token → whose it is and until when (ms) */
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  /** `${client id}:${PayPal-Request-Id}` → first answer */
  requests: Map<string, StoredResponse>;
  events: Map<string, WebhookEvent>;
  transmissions: Transmission[];
}

export function createState(): PaypalSimState {
  return {
    products: new Map(),
    plans: new Map(),
    subscriptions: new Map(),
    approvals: new Map(),
    tokens: new Map(),
    requests: new Map(),
    events: new Map(),
    transmissions: [],
  };
}

export function clearState(state: PaypalSimState): void {
  Object.assign(state, createState());
}

export function snapshot(state: PaypalSimState) {
  return {
    products: [...state.products.values()],
    plans: [...state.plans.values()],
    subscriptions: [...state.subscriptions.values()],
    events: [...state.events.values()].map((e) => ({
      id: e.id,
      event_type: e.event_type,
      create_time: e.create_time,
    })),
    transmissions: state.transmissions,
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** PayPal-looking ids: I-XXXXXXXXXXXX, P-…, PROD-…, BA-…, WH-…. */
export function paypalId(prefix: string, length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += UPPER[b % UPPER.length];
  return prefix ? `${prefix}-${out}` : out;
}

/** PayPal's payer ids: 13 characters without 0, 1, I or O (billing_subscriptions_v1's pattern). */
const PAYER_ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export function payerId(): string {
  let out = '';
  for (const b of randomBytes(13)) out += PAYER_ID_ALPHABET[b % PAYER_ID_ALPHABET.length];
  return out;
}

export const newTransmissionId = () => randomUUID();

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Calendar month arithmetic in UTC, clamped to the month's last day. */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}
