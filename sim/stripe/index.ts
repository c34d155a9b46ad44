/**
 * A local stand-in for the parts of Stripe's API this product uses, speaking Stripe's wire format
 * (form-encoded requests, JSON objects and errors, Idempotency-Key, signed webhooks), so that the
 * real `stripe` SDK, pointed here, is what the tests exercise. Control endpoints under /_sim/
 * let tests and developers drive what a customer or time would do. Not a security boundary:
 * bind it to loopback.
 */

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type KeyKind, matchRoute, runRoute } from './api';
import { StripeBilling } from './billing';
import { StripeSimError } from './errors';
import { type FormObject, parseForm } from './form';
import { API_VERSION, newId, type StripeEvent } from './objects';
import { clearState, createState, type StripeSimState, snapshot, type WebhookDelivery } from './state';
import { DEFAULT_ENABLED_EVENTS, WebhookDispatcher } from './webhooks';

export type { StripeSimState, WebhookDelivery } from './state';
export { DEFAULT_ENABLED_EVENTS, stripeSignatureHeader } from './webhooks';

export interface StripeSimOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Listen address; loopback by default. */
  host?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  /** Event types sent to the webhook target; DEFAULT_ENABLED_EVENTS unless given (`['*']`: all). */
  enabledEvents?: string[];
  /** When set, only this secret key is accepted; otherwise any `sk_…` key is. */
  secretKey?: string;
  /** Clock in milliseconds (tests may move it); Date.now by default. */
  now?: () => number;
}

export interface StripeSim {
  url: string;
  port: number;
  state: StripeSimState;
  close(): Promise<void>;
  setWebhookTarget(url: string | null, secret?: string): void;
  /** Waits until every webhook queued so far has been delivered (or has failed). */
  flush(): Promise<void>;
  resend(eventId: string): Promise<WebhookDelivery | null>;
  /** What the customer does at the next 3-D Secure challenge. */
  setAuthenticationResult(result: 'succeed' | 'fail'): void;
  /** How long after a Stripe.js confirmation the subscription turns active (0: at once). */
  setActivationDelay(ms: number): void;
  /** Moves a subscription to the end of its period: renewal, or the end when cancel_at_period_end. */
  advanceSubscription(subscriptionId: string): Promise<unknown>;
  reset(): void;
}

const MAX_BODY = 1024 * 1024;

export async function startStripeSim(opts: StripeSimOptions = {}): Promise<StripeSim> {
  const state = createState();
  const nowMs = opts.now ?? Date.now;
  const nowSeconds = () => Math.floor(nowMs() / 1000);
  const dispatcher = new WebhookDispatcher(state, nowSeconds);
  const enabledEvents = opts.enabledEvents ?? DEFAULT_ENABLED_EVENTS;
  if (opts.webhookUrl) {
    dispatcher.target = { url: opts.webhookUrl, secret: opts.webhookSecret ?? 'whsec_sim', enabledEvents };
  }
  let baseUrl = '';

  /** Runs `work` and delivers the events it raised once `respond` has sent the answer. */
  /** Asynchronous steps still to come; cleared when the stand-in closes or resets. */
  const pending = new Set<ReturnType<typeof setTimeout>>();

  function withEvents<T>(
    request: { id: string | null; idempotencyKey: string | null },
    work: (b: StripeBilling) => T,
  ) {
    const raised: StripeEvent[] = [];
    const billing = new StripeBilling({
      state,
      now: nowSeconds,
      baseUrl: () => baseUrl,
      emit: (type, object, previous) => raised.push(dispatcher.createEvent(type, object, previous, request)),
      later: (ms, work) => {
        const timer = setTimeout(() => {
          pending.delete(timer);
          // Its events belong to no API request, like Stripe's own follow-ups.
          const { release } = withEvents({ id: null, idempotencyKey: null }, work);
          release();
        }, ms);
        pending.add(timer);
      },
    });
    const release = () => {
      for (const event of raised) dispatcher.enqueue(event);
    };
    try {
      return { result: work(billing), release };
    } catch (err) {
      // An operation that failed half-way still announces what it did before failing.
      release();
      throw err;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: String(err) } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers':
          'Authorization, Content-Type, Stripe-Version, Idempotency-Key, Stripe-Account',
        'access-control-max-age': '300',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://sim');
    const raw = await readBody(req);
    if (raw === null)
      return sendJson(res, 413, { error: { type: 'invalid_request_error', message: 'Request too large.' } });
    if (url.pathname.startsWith('/_sim/')) return control(req.method ?? 'GET', url.pathname, raw, res);
    if (req.method === 'GET' && url.pathname === '/v3') return serveStripeJs(res);
    return api(req, res, url, raw);
  }

  /** The stand-in Stripe.js, told where this stand-in answers (`npm run dev` loads it offline). */
  function serveStripeJs(res: ServerResponse): void {
    const script = readFileSync(new URL('./stripe-js.js', import.meta.url), 'utf8');
    res.writeHead(200, {
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': 'no-cache',
    });
    res.end(`window.__STRIPE_SIM_URL__ = ${JSON.stringify(baseUrl)};\n${script}`);
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
    const method = req.method ?? 'GET';
    const requestId = newId('req', 14);
    res.setHeader('request-id', requestId);
    res.setHeader('stripe-version', header(req, 'stripe-version') ?? API_VERSION);
    try {
      const match = matchRoute(method, url.pathname);
      if (!match || match === 'method_not_allowed') {
        throw new StripeSimError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        });
      }
      const form: FormObject = method === 'POST' ? parseForm(raw) : parseForm(url.search.slice(1));
      const { kind, key } = authenticate(req, form);
      delete form.key;

      const idempotencyKey = method === 'POST' ? header(req, 'idempotency-key') : null;
      if (idempotencyKey) res.setHeader('idempotency-key', idempotencyKey);
      const storeKey = idempotencyKey ? `${key}:${idempotencyKey}` : null;
      const fingerprint = `${method} ${url.pathname} ${raw}`;
      const stored = storeKey ? state.idempotency.get(storeKey) : undefined;
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          throw new StripeSimError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        res.setHeader('idempotent-replayed', 'true');
        return sendJson(res, stored.status, stored.body);
      }

      let status = 200;
      let body: unknown;
      let release = () => {};
      try {
        const run = withEvents({ id: requestId, idempotencyKey }, (billing) =>
          runRoute(match, { form, keyKind: kind, billing, state }),
        );
        body = run.result;
        release = run.release;
      } catch (err) {
        if (!(err instanceof StripeSimError)) throw err;
        status = err.status;
        body = { error: err.body };
        // Stripe keeps the answer of a request that ran (a decline included), not of a refused one.
        if (storeKey && status === 402) state.idempotency.set(storeKey, { fingerprint, status, body });
        throw err;
      }
      if (storeKey) state.idempotency.set(storeKey, { fingerprint, status, body });
      res.once('finish', release);
      sendJson(res, status, body);
    } catch (err) {
      if (err instanceof StripeSimError) return sendJson(res, err.status, { error: err.body });
      throw err;
    }
  }

  function authenticate(req: IncomingMessage, form: FormObject): { kind: KeyKind; key: string } {
    const auth = header(req, 'authorization');
    let key: string | null = null;
    if (auth?.startsWith('Bearer ')) key = auth.slice(7).trim();
    else if (auth?.startsWith('Basic '))
      key = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0];
    else if (typeof form.key === 'string') key = form.key;
    if (!key) {
      throw new StripeSimError(401, {
        type: 'invalid_request_error',
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      });
    }
    if (key.startsWith('pk_')) return { kind: 'publishable', key };
    const valid = opts.secretKey ? key === opts.secretKey : key.startsWith('sk_') || key.startsWith('rk_');
    if (!valid) {
      throw new StripeSimError(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      });
    }
    return { kind: 'secret', key };
  }

  async function control(method: string, path: string, raw: string, res: ServerResponse): Promise<void> {
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { message: 'Control requests take a JSON body.' });
      }
    }
    const is = (m: string, re: RegExp) => (method === m ? re.exec(path) : null);
    const invoiceMatch = is('GET', /^\/_sim\/invoices\/([^/]+)$/);
    const resendMatch = is('POST', /^\/_sim\/resend\/([^/]+)$/);
    const advanceMatch = is('POST', /^\/_sim\/subscriptions\/([^/]+)\/advance$/);
    try {
      if (is('GET', /^\/_sim\/state$/)) return sendJson(res, 200, snapshot(state));
      if (invoiceMatch) {
        const invoice = state.invoices.get(decodeURIComponent(invoiceMatch[1]));
        return invoice ? sendJson(res, 200, invoice) : sendJson(res, 404, { message: 'No such invoice' });
      }
      if (is('GET', /^\/_sim\/3ds\/([^/]+)$/)) {
        // Where next_action points. The stand-in Stripe.js never opens it: confirmCardPayment
        // plays the challenge with the outcome set by POST /_sim/3ds.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>3D Secure test</title><p>3-D Secure challenge (stand-in).</p>');
        return;
      }
      if (is('POST', /^\/_sim\/webhook$/)) {
        const url = typeof body.url === 'string' ? body.url : null;
        sim.setWebhookTarget(url, typeof body.secret === 'string' ? body.secret : undefined);
        return sendJson(res, 200, { url, ok: true });
      }
      if (resendMatch) {
        const delivery = await sim.resend(decodeURIComponent(resendMatch[1]));
        if (!delivery) return sendJson(res, 404, { message: 'No such event, or no webhook target set.' });
        return sendJson(res, 200, delivery);
      }
      if (is('POST', /^\/_sim\/flush$/)) {
        await dispatcher.flush();
        return sendJson(res, 200, { deliveries: state.deliveries });
      }
      if (is('POST', /^\/_sim\/3ds$/)) {
        if (body.result !== 'succeed' && body.result !== 'fail') {
          return sendJson(res, 400, { message: 'result must be "succeed" or "fail"' });
        }
        sim.setAuthenticationResult(body.result);
        return sendJson(res, 200, { result: body.result });
      }
      if (is('POST', /^\/_sim\/activation-delay$/)) {
        const ms = body.ms;
        if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > 600_000)
          return sendJson(res, 400, { message: 'ms must be a whole number from 0 to 600000' });
        sim.setActivationDelay(ms);
        return sendJson(res, 200, { ms });
      }
      if (advanceMatch) {
        return sendJson(res, 200, await sim.advanceSubscription(decodeURIComponent(advanceMatch[1])));
      }
      if (is('POST', /^\/_sim\/reset$/)) {
        sim.reset();
        return sendJson(res, 200, { ok: true });
      }
      return sendJson(res, 404, { message: `Unknown control endpoint ${method} ${path}` });
    } catch (err) {
      if (err instanceof StripeSimError) return sendJson(res, err.status, { message: err.message });
      throw err;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;

  const sim: StripeSim = {
    url: baseUrl,
    port: address.port,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    setWebhookTarget(url, secret) {
      dispatcher.target = url
        ? {
            url,
            secret: secret ?? dispatcher.target?.secret ?? opts.webhookSecret ?? 'whsec_sim',
            enabledEvents,
          }
        : null;
    },
    flush: () => dispatcher.flush(),
    resend: async (eventId) => (await dispatcher.resend(eventId)) ?? null,
    setAuthenticationResult(result) {
      state.authenticationResult = result;
    },
    async advanceSubscription(subscriptionId) {
      const { result, release } = withEvents({ id: null, idempotencyKey: null }, (billing) =>
        structuredClone(billing.advanceSubscription(subscriptionId)),
      );
      release();
      return result;
    },
    reset() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      clearState(state);
    },
    setActivationDelay(ms) {
      state.activationDelayMs = ms;
    },
  };
  return sim;
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  if (Array.isArray(v)) return v[0] ?? null;
  return v ?? null;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** For callers that need a fresh secret, e.g. `npm run dev` wiring the app to the stand-in. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}
