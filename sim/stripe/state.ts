/** Everything the Stripe stand-in remembers, in memory. Tests may read it through `sim.state`. */
import type {
  CardBehaviour,
  Customer,
  Invoice,
  PaymentIntent,
  PaymentMethod,
  Price,
  Product,
  SetupIntent,
  StripeEvent,
  Subscription,
} from './objects';

export interface WebhookDelivery {
  eventId: string;
  type: string;
  url: string;
  attempt: number;
  at: number;
  /** HTTP status of the target's answer; null when the request failed outright. */
  status: number | null;
  ok: boolean;
  error: string | null;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface StripeSimState {
  customers: Map<string, Customer>;
  paymentMethods: Map<string, PaymentMethod>;
  /** How each PaymentMethod behaves when charged (from the test card it was made from). */
  cardBehaviour: Map<string, CardBehaviour>;
  products: Map<string, Product>;
  prices: Map<string, Price>;
  subscriptions: Map<string, Subscription>;
  invoices: Map<string, Invoice>;
  paymentIntents: Map<string, PaymentIntent>;
  setupIntents: Map<string, SetupIntent>;
  /** Cards set up for off-session use (a SetupIntent, or a first payment that saved them). */
  offSessionReady: Set<string>;
  /** invoice id → its PaymentIntent, and back (basil invoices no longer name it directly). */
  invoiceIntent: Map<string, string>;
  intentInvoice: Map<string, string>;
  events: Map<string, StripeEvent>;
  deliveries: WebhookDelivery[];
  /** `${api key}:${Idempotency-Key}` → the first answer. */
  idempotency: Map<string, StoredResponse>;
  /** What the next 3-D Secure challenge does when Stripe.js confirms (the customer's choice). */
  authenticationResult: 'succeed' | 'fail';
  /**
   * After a PaymentIntent confirmed by Stripe.js succeeds, Stripe pays the invoice and activates
   * the subscription a moment later, not within the confirm call: this long later, in ms.
   */
  activationDelayMs: number;
}

export function createState(): StripeSimState {
  return {
    customers: new Map(),
    paymentMethods: new Map(),
    cardBehaviour: new Map(),
    products: new Map(),
    prices: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    paymentIntents: new Map(),
    setupIntents: new Map(),
    offSessionReady: new Set(),
    invoiceIntent: new Map(),
    intentInvoice: new Map(),
    events: new Map(),
    deliveries: [],
    idempotency: new Map(),
    authenticationResult: 'succeed',
    activationDelayMs: 1_000,
  };
}

export function clearState(state: StripeSimState): void {
  const fresh = createState();
  Object.assign(state, fresh);
}

/** A JSON-friendly view for GET /_sim/state. */
export function snapshot(state: StripeSimState) {
  return {
    customers: [...state.customers.values()],
    paymentMethods: [...state.paymentMethods.values()],
    products: [...state.products.values()],
    prices: [...state.prices.values()],
    subscriptions: [...state.subscriptions.values()],
    invoices: [...state.invoices.values()],
    paymentIntents: [...state.paymentIntents.values()],
    setupIntents: [...state.setupIntents.values()],
    events: [...state.events.values()].map((e) => ({ id: e.id, type: e.type, created: e.created })),
    deliveries: state.deliveries,
    authenticationResult: state.authenticationResult,
    activationDelayMs: state.activationDelayMs,
  };
}
