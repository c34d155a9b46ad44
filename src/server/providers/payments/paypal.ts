/**
 * Wallet payments through PayPal's REST API (Subscriptions v1): the only module that talks to
 * PayPal. A thin fetch client with a configurable base URL (PAYPAL_API_URL: PayPal's sandbox or
 * live host, or the stand-in in sim/paypal), because PayPal's SDKs hard-code their hosts.
 * OAuth2 client-credentials tokens are cached until shortly before they expire; a 401 refreshes
 * once. Every request has a timeout. Errors become PaymentError.
 */
import { PaymentError, USER_MESSAGES } from './errors';
import { readPaypalEvent } from './paypal-events';
import { headerValue, type PaymentGateway, type WebhookHeaders } from './types';

export interface PaypalGatewayOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.sandbox.paypal.com, https://api-m.paypal.com, or the stand-in. */
  apiUrl: string;
  /** The id PayPal gave our webhook; needed to verify deliveries. */
  webhookId: string | null;
  /** Shown to the buyer on PayPal's approval page. */
  brandName?: string;
  timeoutMs?: number;
  /** Injected in tests; the global fetch by default. */
  fetch?: typeof fetch;
}

export type PaypalSubscriptionStatus =
  | 'APPROVAL_PENDING'
  | 'APPROVED'
  | 'ACTIVE'
  | 'SUSPENDED'
  | 'CANCELLED'
  | 'EXPIRED';

export interface PaypalSubscriptionInfo {
  id: string;
  status: PaypalSubscriptionStatus;
  planId: string | null;
  /** Our client id, as we passed it in custom_id. */
  customId: string | null;
  /** Epoch milliseconds; null until the subscription is active. */
  nextBillingTime: number | null;
}

/** PayPal's own flows beside the neutral ones (types.ts): the buyer's approval, PayPal's statuses. */
export interface PaypalGateway extends PaymentGateway {
  readonly provider: 'paypal';
  /** Starts a subscription; the buyer approves it at `approveUrl`. Same requestId, same subscription. */
  createSubscription(input: {
    paypalPlanId: string;
    clientId: string;
    returnUrl: string;
    cancelUrl: string;
    requestId: string;
    /** The agency's brand at the time of checkout; else the gateway's brandName. */
    brandName?: string;
  }): Promise<{ id: string; approveUrl: string }>;
  getSubscription(id: string): Promise<PaypalSubscriptionInfo>;
  /**
   * Cancels at PayPal. Returns the resulting status: CANCELLED, or the current status of one that
   * cannot be cancelled (already CANCELLED/EXPIRED, or never approved), so repeating it is harmless.
   */
  cancelSubscription(id: string, reason?: string): Promise<PaypalSubscriptionStatus>;
  /** Asks PayPal whether the delivery is genuine. False for anything unsigned, altered or foreign. */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer | string): Promise<boolean>;
  /** A monthly plan for our plan: `existingPlanId` when it still matches the price, else a new product and plan. */
  ensurePlan(input: {
    planId: string;
    name: string;
    monthlyPriceCents: number;
    existingPlanId?: string | null;
    currency?: string;
  }): Promise<string>;
}

interface PaypalLink {
  href: string;
  rel: string;
}

type Json = Record<string, unknown>;

const MESSAGES = {
  unavailable: 'PayPal could not be reached. Please try again in a moment.',
  auth: 'PayPal payments are not available right now. Please contact support.',
  invalid: 'PayPal could not process the request. Please try again or contact support.',
};

export function createPaypalGateway(options: PaypalGatewayOptions): PaypalGateway {
  const base = options.apiUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? fetch;
  let token: { value: string; expiresAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new PaymentError('paypal', 'unavailable', MESSAGES.unavailable, {
        providerMessage: timedOut
          ? `timed out after ${timeoutMs} ms`
          : err instanceof Error
            ? err.message
            : String(err),
      });
    }
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const body = await readJson(res);
    if (!res.ok || typeof body.access_token !== 'string') throw toPaymentError(res.status, body);
    const ttl = typeof body.expires_in === 'number' ? body.expires_in : 300;
    // Refresh a minute early so a token never expires between our check and PayPal's.
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(ttl - 60, ttl / 2) * 1000 };
    return token.value;
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    // Concurrent callers share one token request.
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = null;
    });
    return pendingToken;
  }

  async function request(
    method: 'GET' | 'POST',
    path: string,
    /** `rawJson`: a JSON body sent exactly as given (verify-webhook-signature). */
    opts: { body?: unknown; rawJson?: string; headers?: Record<string, string> } = {},
    retried = false,
  ): Promise<Json> {
    const payload = opts.rawJson ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
    const res = await send(path, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: payload,
    });
    if (res.status === 401 && !retried) {
      // Revoked or expired early: one fresh token, then give up.
      token = null;
      await res.arrayBuffer().catch(() => undefined);
      return request(method, path, opts, true);
    }
    const body = await readJson(res);
    if (!res.ok) throw toPaymentError(res.status, body);
    return body;
  }

  const gateway: PaypalGateway = {
    provider: 'paypal',
    webhooksConfigured: !!options.webhookId,

    ensurePlanPrice: ({ existingId, ...plan }) => gateway.ensurePlan({ ...plan, existingPlanId: existingId }),

    async endSubscription(id, reason) {
      await gateway.cancelSubscription(id, reason);
    },

    async parseWebhook(rawBody, headers) {
      if (!(await gateway.verifyWebhook(headers, rawBody)))
        return { kind: 'unauthorized', message: USER_MESSAGES.signature };
      const event = readPaypalEvent(rawBody);
      return event ? { kind: 'event', event } : { kind: 'invalid', message: 'Invalid webhook event' };
    },

    async createSubscription({ paypalPlanId, clientId, returnUrl, cancelUrl, requestId, brandName }) {
      const shownAs = brandName ?? options.brandName;
      const body = await request('POST', '/v1/billing/subscriptions', {
        headers: { 'PayPal-Request-Id': requestId, Prefer: 'return=minimal' },
        body: {
          plan_id: paypalPlanId,
          custom_id: clientId,
          application_context: {
            ...(shownAs ? { brand_name: shownAs.slice(0, 127) } : {}),
            shipping_preference: 'NO_SHIPPING',
            user_action: 'SUBSCRIBE_NOW',
            return_url: returnUrl,
            cancel_url: cancelUrl,
          },
        },
      });
      // PayPal's links are {href, rel} objects by its API reference; only their rel is compared here.
      const links = Array.isArray(body.links) ? (body.links as PaypalLink[]) : [];
      const approve = links.find((l) => l.rel === 'approve');
      if (typeof body.id !== 'string' || !approve) {
        throw new PaymentError('paypal', 'invalid', MESSAGES.invalid, {
          providerMessage: 'subscription created without an approve link',
        });
      }
      return { id: body.id, approveUrl: approve.href };
    },

    async getSubscription(id) {
      const body = await request('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`);
      // Read loosely: the one field used below is type-checked before it is read.
      const billing = (body.billing_info ?? {}) as Json;
      const next =
        typeof billing.next_billing_time === 'string' ? Date.parse(billing.next_billing_time) : Number.NaN;
      return {
        id: String(body.id),
        // PayPal's own status word, passed on; callers act only on the values they compare it with.
        status: body.status as PaypalSubscriptionStatus,
        planId: typeof body.plan_id === 'string' ? body.plan_id : null,
        customId: typeof body.custom_id === 'string' ? body.custom_id : null,
        nextBillingTime: Number.isNaN(next) ? null : next,
      };
    },

    async cancelSubscription(id, reason = 'Cancelled by the customer') {
      try {
        await request('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
          body: { reason: reason.slice(0, 128) },
        });
        return 'CANCELLED';
      } catch (err) {
        if (!(err instanceof PaymentError) || err.detail.code !== 'SUBSCRIPTION_STATUS_INVALID') throw err;
        const current = await gateway.getSubscription(id);
        if (current.status === 'ACTIVE' || current.status === 'SUSPENDED') throw err;
        return current.status;
      }
    },

    async verifyWebhook(headers, rawBody) {
      if (!options.webhookId) return false;
      const get = (name: string) => headerValue(headers, name);
      const fields = {
        auth_algo: get('paypal-auth-algo'),
        cert_url: get('paypal-cert-url'),
        transmission_id: get('paypal-transmission-id'),
        transmission_sig: get('paypal-transmission-sig'),
        transmission_time: get('paypal-transmission-time'),
      };
      if (Object.values(fields).some((v) => !v)) return false;
      const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch {
        return false;
      }
      if (typeof event !== 'object' || event === null || Array.isArray(event)) return false;
      // PayPal checks its signature against the CRC32 of webhook_event as it arrives in this
      // request, so the delivery's own bytes go in verbatim: parsed and serialised again, a real
      // body (escaped slashes, spacing, number formats) would not match and every event be refused.
      const head = JSON.stringify({ ...fields, webhook_id: options.webhookId });
      const verifyBody = `${head.slice(0, -1)},"webhook_event":${text}}`;
      try {
        const body = await request('POST', '/v1/notifications/verify-webhook-signature', {
          rawJson: verifyBody,
        });
        return body.verification_status === 'SUCCESS';
      } catch (err) {
        // PayPal refusing the question (a malformed header value) means "not verified"; an outage does not.
        if (err instanceof PaymentError && err.kind === 'invalid') return false;
        throw err;
      }
    },

    async ensurePlan({ planId, name, monthlyPriceCents, existingPlanId, currency = 'USD' }) {
      const value = formatCents(monthlyPriceCents);
      if (existingPlanId) {
        try {
          const plan = await request('GET', `/v1/billing/plans/${encodeURIComponent(existingPlanId)}`);
          if (planMatches(plan, value, currency)) return existingPlanId;
        } catch (err) {
          if (!(err instanceof PaymentError) || err.kind !== 'not_found') throw err;
        }
      }
      const key = `${planId}-${monthlyPriceCents}-${currency}`;
      const product = await request('POST', '/v1/catalogs/products', {
        headers: { 'PayPal-Request-Id': `product-${key}` },
        body: { name: name.slice(0, 127), type: 'SERVICE' },
      });
      const plan = await request('POST', '/v1/billing/plans', {
        headers: { 'PayPal-Request-Id': `plan-${key}`, Prefer: 'return=minimal' },
        body: {
          product_id: product.id,
          name: name.slice(0, 127),
          status: 'ACTIVE',
          billing_cycles: [
            {
              frequency: { interval_unit: 'MONTH', interval_count: 1 },
              tenure_type: 'REGULAR',
              sequence: 1,
              total_cycles: 0,
              pricing_scheme: { fixed_price: { value, currency_code: currency } },
            },
          ],
          payment_preferences: {
            auto_bill_outstanding: true,
            setup_fee_failure_action: 'CONTINUE',
            payment_failure_threshold: 3,
          },
        },
      });
      if (typeof plan.id !== 'string') {
        throw new PaymentError('paypal', 'invalid', MESSAGES.invalid, { providerMessage: 'plan without id' });
      }
      return plan.id;
    },
  };
  return gateway;
}

function planMatches(plan: Json, value: string, currency: string): boolean {
  if (plan.status !== 'ACTIVE' || !Array.isArray(plan.billing_cycles)) return false;
  // A plan is read loosely: every field is compared with a literal, so a shape other than PayPal's matches nothing.
  const regular = (plan.billing_cycles as Json[]).find((c) => c.tenure_type === 'REGULAR');
  const frequency = regular?.frequency as Json | undefined;
  const price = (regular?.pricing_scheme as Json | undefined)?.fixed_price as Json | undefined;
  return (
    frequency?.interval_unit === 'MONTH' &&
    frequency.interval_count === 1 &&
    price?.currency_code === currency &&
    Number(price.value) === Number(value)
  );
}

/** 2900 → "29.00", without floating point. */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

async function readJson(res: Response): Promise<Json> {
  const text = await res.text().catch(() => '');
  if (!text) return {};
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return { message: text.slice(0, 200) };
  }
}

/** PayPal's error envelope ({name, message, details[{issue, description}]}, or OAuth's {error}). */
function toPaymentError(status: number, body: Json): PaymentError {
  // Read loosely: each detail field is type-checked before it is used.
  const details = Array.isArray(body.details) ? (body.details as Json[]) : [];
  const issue = typeof details[0]?.issue === 'string' ? details[0].issue : null;
  const name = typeof body.name === 'string' ? body.name : typeof body.error === 'string' ? body.error : null;
  const providerMessage = [body.message, body.error_description, details[0]?.description]
    .filter((v) => typeof v === 'string')
    .join(' ');
  const detail = { code: issue ?? name, status, providerMessage: providerMessage || null };
  if (status === 401 || status === 403) return new PaymentError('paypal', 'auth', MESSAGES.auth, detail);
  if (status === 404) return new PaymentError('paypal', 'not_found', MESSAGES.invalid, detail);
  if (status === 429 || status >= 500)
    return new PaymentError('paypal', 'unavailable', MESSAGES.unavailable, detail);
  return new PaymentError('paypal', 'invalid', MESSAGES.invalid, detail);
}
