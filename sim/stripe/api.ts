/**
 * The /v1 endpoints the server adapter and Stripe.js use, each with the parameter names it takes
 * (anything else answers Stripe's 400 parameter_unknown, which catches adapter typos early).
 */
import type { StripeBilling } from './billing';
import { StripeSimError } from './errors';
import { expandObject } from './expand';
import { type FormObject, optBool, optString, rejectUnknown, reqString, stringList } from './form';
import { list } from './objects';
import type { StripeSimState } from './state';

export type KeyKind = 'secret' | 'publishable';

export interface ApiRequest {
  pathParams: Record<string, string>;
  form: FormObject;
  keyKind: KeyKind;
  billing: StripeBilling;
  state: StripeSimState;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  allowed: readonly string[];
  /** Stripe.js may call it with a publishable key, proving access with the client secret. */
  publishable?: boolean;
  handle(req: ApiRequest): unknown;
}

function route(
  method: string,
  path: string,
  allowed: readonly string[],
  handle: Route['handle'],
  publishable = false,
): Route {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${path.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    })}$`,
  );
  return { method, pattern, names, allowed: [...allowed, 'expand'], handle, publishable };
}

const CUSTOMER_FIELDS = ['email', 'name', 'description', 'metadata', 'phone', 'invoice_settings'] as const;

const ROUTES: Route[] = [
  route('POST', '/v1/customers', [...CUSTOMER_FIELDS, 'payment_method'], (r) =>
    r.billing.createCustomer(r.form),
  ),
  route('GET', '/v1/customers/:id', [], (r) => r.billing.customer(r.pathParams.id)),
  route('POST', '/v1/customers/:id', CUSTOMER_FIELDS, (r) =>
    r.billing.updateCustomer(r.pathParams.id, r.form),
  ),

  route('POST', '/v1/payment_methods/:id/attach', ['customer'], (r) =>
    r.billing.attachPaymentMethod(r.pathParams.id, reqString(r.form, 'customer')),
  ),
  route('GET', '/v1/payment_methods/:id', [], (r) => r.billing.paymentMethod(r.pathParams.id)),

  route('POST', '/v1/products', ['id', 'name', 'active', 'description', 'metadata'], (r) =>
    r.billing.createProduct(r.form),
  ),
  route('GET', '/v1/products/:id', [], (r) => r.billing.product(r.pathParams.id)),

  route(
    'POST',
    '/v1/prices',
    [
      'currency',
      'unit_amount',
      'product',
      'product_data',
      'recurring',
      'lookup_key',
      'transfer_lookup_key',
      'metadata',
      'nickname',
      'active',
    ],
    (r) => r.billing.createPrice(r.form),
  ),
  route('GET', '/v1/prices/:id', [], (r) => r.billing.price(r.pathParams.id)),
  route('GET', '/v1/prices', ['lookup_keys', 'active', 'product', 'limit', 'type'], (r) => {
    const keys = stringList(r.form, 'lookup_keys');
    const active = optBool(r.form, 'active');
    const product = optString(r.form, 'product');
    const data = [...r.state.prices.values()].filter(
      (p) =>
        (keys.length === 0 || (p.lookup_key !== null && keys.includes(p.lookup_key))) &&
        (active === undefined || p.active === active) &&
        (product === undefined || p.product === product),
    );
    return list(data, '/v1/prices');
  }),

  route(
    'POST',
    '/v1/subscriptions',
    [
      'customer',
      'items',
      'default_payment_method',
      'payment_behavior',
      'metadata',
      'description',
      'cancel_at_period_end',
      'collection_method',
      'payment_settings',
      'off_session',
      'proration_behavior',
    ],
    (r) => {
      const method = optString(r.form, 'collection_method');
      if (method && method !== 'charge_automatically') {
        throw StripeSimError.invalid(
          'The stand-in only bills subscriptions with charge_automatically.',
          'collection_method',
        );
      }
      return r.billing.createSubscription(r.form);
    },
  ),
  route('GET', '/v1/subscriptions/:id', [], (r) => r.billing.subscription(r.pathParams.id)),
  route(
    'POST',
    '/v1/subscriptions/:id',
    [
      'cancel_at_period_end',
      'items',
      'metadata',
      'default_payment_method',
      'proration_behavior',
      'proration_date',
      'payment_behavior',
      'cancellation_details',
      'description',
    ],
    (r) => r.billing.updateSubscription(r.pathParams.id, r.form),
  ),
  route('DELETE', '/v1/subscriptions/:id', ['cancellation_details', 'invoice_now', 'prorate'], (r) =>
    r.billing.cancelSubscription(r.pathParams.id, r.form),
  ),

  route('GET', '/v1/invoices/:id', [], (r) => r.billing.invoice(r.pathParams.id)),
  route('POST', '/v1/invoices/create_preview', ['customer', 'subscription', 'subscription_details'], (r) =>
    r.billing.previewInvoice(r.form),
  ),
  route('POST', '/v1/invoices/:id/void', [], (r) => r.billing.voidInvoice(r.pathParams.id)),

  route(
    'GET',
    '/v1/payment_intents/:id',
    ['client_secret'],
    (r) => {
      const pi = r.billing.paymentIntent(r.pathParams.id);
      if (r.keyKind === 'publishable') requireClientSecret(r.form, pi.client_secret);
      return pi;
    },
    true,
  ),
  route(
    'POST',
    '/v1/payment_intents/:id/confirm',
    ['client_secret', 'payment_method', 'return_url', 'use_stripe_sdk', 'off_session'],
    (r) => {
      const pi = r.billing.paymentIntent(r.pathParams.id);
      if (r.keyKind === 'publishable') requireClientSecret(r.form, pi.client_secret);
      return r.billing.confirmPaymentIntent(pi.id, r.form, r.keyKind);
    },
    true,
  ),

  route(
    'POST',
    '/v1/setup_intents',
    ['customer', 'usage', 'payment_method_types', 'metadata', 'description'],
    (r) => r.billing.createSetupIntent(r.form),
  ),
  route(
    'GET',
    '/v1/setup_intents/:id',
    ['client_secret'],
    (r) => {
      const si = r.billing.setupIntent(r.pathParams.id);
      if (r.keyKind === 'publishable') requireClientSecret(r.form, si.client_secret);
      return si;
    },
    true,
  ),
  route(
    'POST',
    '/v1/setup_intents/:id/confirm',
    ['client_secret', 'payment_method', 'return_url', 'use_stripe_sdk'],
    (r) => {
      const si = r.billing.setupIntent(r.pathParams.id);
      if (r.keyKind === 'publishable') requireClientSecret(r.form, si.client_secret);
      return r.billing.confirmSetupIntent(si.id, r.form, r.keyKind);
    },
    true,
  ),

  route('GET', '/v1/events/:id', [], (r) => {
    const event = r.state.events.get(r.pathParams.id);
    if (!event) throw StripeSimError.noSuch('event', r.pathParams.id);
    return event;
  }),
];

function requireClientSecret(form: FormObject, expected: string): void {
  const given = optString(form, 'client_secret');
  if (!given) throw StripeSimError.missing('client_secret');
  if (given !== expected) {
    throw StripeSimError.invalid(
      'The client_secret provided does not match any associated PaymentIntent on this account.',
      'client_secret',
      'payment_intent_invalid_parameter',
    );
  }
}

export type RouteMatch = { route: Route; pathParams: Record<string, string> };

export function matchRoute(method: string, path: string): RouteMatch | 'method_not_allowed' | null {
  let pathMatched = false;
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const pathParams: Record<string, string> = {};
    r.names.forEach((name, i) => {
      pathParams[name] = decodeURIComponent(m[i + 1]);
    });
    return { route: r, pathParams };
  }
  return pathMatched ? 'method_not_allowed' : null;
}

/** Runs a matched route: parameter check, the operation, then the requested expansions. */
export function runRoute(match: RouteMatch, req: Omit<ApiRequest, 'pathParams'>): unknown {
  const { route: r } = match;
  if (req.keyKind === 'publishable' && !r.publishable) {
    throw new StripeSimError(401, {
      type: 'invalid_request_error',
      message:
        'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
    });
  }
  rejectUnknown(req.form, r.allowed);
  const expand = stringList(req.form, 'expand');
  const form = { ...req.form };
  delete form.expand;
  const result = r.handle({ ...req, form, pathParams: match.pathParams });
  return expandObject(req.state, result, expand);
}
