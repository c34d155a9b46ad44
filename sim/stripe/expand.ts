/**
 * `expand[]=latest_invoice.confirmation_secret` and friends. Ids become objects along the path;
 * an invoice's `confirmation_secret` and `payments` are "includable": absent unless expanded,
 * as on Stripe since 2025-03-31.basil. Anything else answers Stripe's "cannot be expanded" error.
 */
import { StripeSimError } from './errors';
import { list } from './objects';
import type { StripeSimState } from './state';

const MAX_DEPTH = 4;

const RESOLVERS: Record<string, (state: StripeSimState, id: string) => unknown> = {
  latest_invoice: (s, id) => s.invoices.get(id),
  invoice: (s, id) => s.invoices.get(id),
  customer: (s, id) => s.customers.get(id),
  default_payment_method: (s, id) => s.paymentMethods.get(id),
  payment_method: (s, id) => s.paymentMethods.get(id),
  product: (s, id) => s.products.get(id),
  price: (s, id) => s.prices.get(id),
  payment_intent: (s, id) => s.paymentIntents.get(id),
  subscription: (s, id) => s.subscriptions.get(id),
};

type Json = Record<string, unknown>;

/** Returns a deep copy of `object` with every path in `paths` expanded. */
export function expandObject<T>(state: StripeSimState, object: T, paths: string[]): T {
  const copy = structuredClone(object);
  for (const path of paths) {
    const segments = path.split('.').filter((s) => s !== 'data');
    if (segments.length > MAX_DEPTH) {
      throw StripeSimError.invalid('You cannot expand more than 4 levels of a property.', 'expand');
    }
    expandPath(state, copy as Json, path.split('.'), path);
  }
  return copy;
}

function expandPath(state: StripeSimState, target: unknown, segments: string[], fullPath: string): void {
  if (segments.length === 0 || target === null || typeof target !== 'object') return;
  const [head, ...rest] = segments;
  const obj = target as Json;
  if (head === 'data' && obj.object === 'list' && Array.isArray(obj.data)) {
    for (const entry of obj.data) expandPath(state, entry, rest, fullPath);
    return;
  }
  if (obj.object === 'invoice' && (head === 'confirmation_secret' || head === 'payments')) {
    obj[head] = includable(state, obj, head);
    expandPath(state, obj[head], rest, fullPath);
    return;
  }
  if (!(head in obj)) throw cannotExpand(fullPath);
  const value = obj[head];
  if (typeof value === 'string') {
    const resolve = RESOLVERS[head];
    if (!resolve) throw cannotExpand(fullPath);
    const found = resolve(state, value);
    if (!found) throw cannotExpand(fullPath);
    obj[head] = structuredClone(found);
  } else if (value !== null && typeof value !== 'object') {
    throw cannotExpand(fullPath);
  } else if (rest.length === 0 && value !== null && !RESOLVERS[head]) {
    throw cannotExpand(fullPath);
  }
  expandPath(state, obj[head], rest, fullPath);
}

function includable(
  state: StripeSimState,
  invoice: Json,
  field: 'confirmation_secret' | 'payments',
): unknown {
  const invoiceId = String(invoice.id);
  const piId = state.invoiceIntent.get(invoiceId);
  const pi = piId ? state.paymentIntents.get(piId) : undefined;
  if (field === 'confirmation_secret') {
    return pi ? { client_secret: pi.client_secret, type: 'payment_intent' } : null;
  }
  const payments = pi
    ? [
        {
          id: `inpay_${pi.id.slice(3)}`,
          object: 'invoice_payment',
          amount_paid: pi.status === 'succeeded' ? pi.amount_received : null,
          amount_requested: pi.amount,
          created: pi.created,
          currency: pi.currency,
          invoice: invoiceId,
          is_default: true,
          livemode: false,
          payment: { type: 'payment_intent', payment_intent: pi.id },
          status: pi.status === 'succeeded' ? 'paid' : pi.status === 'canceled' ? 'canceled' : 'open',
          status_transitions: {
            canceled_at: pi.canceled_at,
            paid_at: pi.status === 'succeeded' ? pi.created : null,
          },
        },
      ]
    : [];
  return list(payments, `/v1/invoice_payments?invoice=${invoiceId}`);
}

function cannotExpand(path: string): StripeSimError {
  return StripeSimError.invalid(`This property cannot be expanded (${path}).`, 'expand');
}
