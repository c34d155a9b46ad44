/**
 * A local stand-in for the PayPal REST endpoints this product uses: OAuth2 client credentials,
 * Catalog Products, Billing Plans and Subscriptions v1 (with PayPal-Request-Id idempotency), the
 * buyer's approval page, signed webhooks and verify-webhook-signature. Control endpoints under
 * /_sim/ do what a buyer would. Not a security boundary: bind it to loopback.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalPage, notFoundPage } from './approval-page';
import { PaypalBilling, PaypalSimError } from './billing';
import {
  clearState,
  createState,
  type PaypalSimState,
  snapshot,
  type Transmission,
  type WebhookEvent,
} from './state';
import { PaypalWebhooks, rawMember } from './webhooks';

export type { PaypalSimState, Transmission } from './state';
export { crc32 } from './webhooks';

/** The webhook id the stand-in signs with unless told otherwise (set PAYPAL_WEBHOOK_ID to it). */
export const DEFAULT_WEBHOOK_ID = 'SIMWEBHOOKID';

export interface PaypalSimOptions {
  port?: number;
  host?: string;
  /** When set, only these credentials get a token; otherwise any non-empty pair does. */
  clientId?: string;
  clientSecret?: string;
  webhookUrl?: string;
  webhookId?: string;
  /** Access token lifetime; PayPal's is 32400 s (9 h). */
  tokenTtlSeconds?: number;
  /** false: approval leaves the subscription APPROVED until POST /_sim/subscriptions/:id/activate. */
  activateOnApproval?: boolean;
  now?: () => number;
}

export interface PaypalSim {
  url: string;
  port: number;
  state: PaypalSimState;
  /** The webhook id deliveries are signed for. */
  readonly webhookId: string;
  close(): Promise<void>;
  /** Sets (or clears, with null) where webhooks go; returns the webhook id to verify them with. */
  setWebhookTarget(url: string | null, webhookId?: string): string;
  /** The buyer approves on PayPal's page: returns where the browser would be sent. */
  approve(subscriptionId: string): { redirectUrl: string };
  /** The buyer cancels on PayPal's page. */
  cancelApproval(subscriptionId: string): { redirectUrl: string };
  /** With activateOnApproval false: the first payment goes through now. */
  activate(subscriptionId: string): void;
  /** The buyer cancels from their PayPal account (a webhook is sent if a target is set). */
  cancelByBuyer(subscriptionId: string): void;
  /** This cycle's charge is declined (BILLING.SUBSCRIPTION.PAYMENT.FAILED). */
  failPayment(subscriptionId: string): void;
  flush(): Promise<void>;
  resend(eventId: string): Promise<Transmission | null>;
  /** Invalidates every access token (tests of token refresh). */
  expireTokens(): void;
  reset(): void;
}

const MAX_BODY = 1024 * 1024;

type Json = Record<string, unknown>;

export async function startPaypalSim(opts: PaypalSimOptions = {}): Promise<PaypalSim> {
  const state = createState();
  const nowMs = opts.now ?? Date.now;
  let baseUrl = '';
  let webhookId = opts.webhookId ?? DEFAULT_WEBHOOK_ID;
  const activateOnApproval = opts.activateOnApproval ?? true;
  const webhooks = new PaypalWebhooks(state, nowMs, () => `${baseUrl}/v1/notifications/certs/CERT-SIM-1`);
  if (opts.webhookUrl) webhooks.target = { url: opts.webhookUrl, webhookId };

  /** Runs `work`; events it raised are delivered by `release`, after the answer has gone out. */
  function withEvents<T>(work: (billing: PaypalBilling) => T): { result: T; release: () => void } {
    const raised: WebhookEvent[] = [];
    const billing = new PaypalBilling({
      state,
      nowMs,
      baseUrl: () => baseUrl,
      activateOnApproval: () => activateOnApproval,
      emit: (event) => {
        webhooks.record(event);
        raised.push(event);
      },
    });
    const release = () => {
      for (const event of raised) webhooks.enqueue(event);
    };
    return { result: work(billing), release };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { name: 'INTERNAL_SERVER_ERROR', message: String(err) });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://sim');
    const raw = await readBody(req);
    if (raw === null) return sendJson(res, 413, { name: 'INVALID_REQUEST', message: 'Request too large.' });
    const path = url.pathname;
    res.setHeader('paypal-debug-id', randomBytes(7).toString('hex').slice(0, 13));
    try {
      if (path.startsWith('/_sim/')) return await control(method, path, raw, res);
      if (path === '/checkoutnow' || path === '/webapps/billing/subscriptions') {
        if (method !== 'GET') return sendJson(res, 405, { message: 'Method not allowed' });
        return showApproval(url.searchParams.get('token') ?? url.searchParams.get('ba_token') ?? '', res);
      }
      if (method === 'POST' && (path === '/checkoutnow/approve' || path === '/checkoutnow/cancel')) {
        const token = new URLSearchParams(raw).get('token') ?? '';
        const { result, release } = withEvents((b) =>
          path.endsWith('/approve') ? b.approve(token) : b.cancelApproval(token),
        );
        res.once('finish', release);
        res.writeHead(303, { location: result });
        res.end();
        return;
      }
      if (method === 'POST' && path === '/v1/oauth2/token') return issueToken(req, raw, res);
      if (method === 'GET' && path.startsWith('/v1/notifications/certs/')) {
        res.writeHead(200, { 'content-type': 'application/x-pem-file' });
        res.end(webhooks.publicKeyPem);
        return;
      }
      if (!path.startsWith('/v1/')) return sendJson(res, 404, { name: 'NOT_FOUND', message: 'Not found' });
      const clientId = authorize(req);
      if (!clientId) {
        return sendJson(res, 401, {
          name: 'AUTHENTICATION_FAILURE',
          message:
            'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
          links: [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }],
        });
      }
      return await api(method, path, raw, req, res, clientId);
    } catch (err) {
      if (err instanceof PaypalSimError) return sendPaypalError(res, err);
      throw err;
    }
  }

  function showApproval(token: string, res: ServerResponse): void {
    const approval = state.approvals.get(token);
    const sub = approval ? state.subscriptions.get(approval.subscriptionId) : undefined;
    res.writeHead(approval && sub ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(approval && sub ? approvalPage(approval, sub, state.plans.get(sub.plan_id)) : notFoundPage());
  }

  function issueToken(req: IncomingMessage, raw: string, res: ServerResponse): void {
    const creds = basicCredentials(req);
    if (!creds || !credentialsValid(creds.id, creds.secret)) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      return;
    }
    const grant = new URLSearchParams(raw).get('grant_type');
    if (grant !== 'client_credentials') {
      sendJson(res, 400, {
        error: 'unsupported_grant_type',
        error_description: grant ? `Grant Type is not supported: ${grant}` : 'Grant Type is NULL',
      });
      return;
    }
    const ttl = opts.tokenTtlSeconds ?? 32_400;
    const token = `A21AA${randomBytes(32).toString('base64url')}`;
    state.tokens.set(token, { clientId: creds.id, expiresAt: Date.now() + ttl * 1000 });
    sendJson(res, 200, {
      scope:
        'https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks https://api.paypal.com/v1/payments/.*',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: ttl,
      nonce: `${new Date().toISOString()}${randomBytes(8).toString('hex')}`,
    });
  }

  function basicCredentials(req: IncomingMessage): { id: string; secret: string } | null {
    const auth = req.headers.authorization;
    if (!auth?.startsWith('Basic ')) return null;
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return null;
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }

  function credentialsValid(id: string, secret: string): boolean {
    if (opts.clientId !== undefined || opts.clientSecret !== undefined) {
      return id === opts.clientId && secret === opts.clientSecret;
    }
    return id.length > 0 && secret.length > 0;
  }

  /** The caller's client id, from a live bearer token or (PayPal accepts it too) Basic credentials. */
  function authorize(req: IncomingMessage): string | null {
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Bearer ')) {
      const entry = state.tokens.get(auth.slice(7).trim());
      if (!entry || entry.expiresAt <= Date.now()) return null;
      return entry.clientId;
    }
    const creds = basicCredentials(req);
    return creds && credentialsValid(creds.id, creds.secret) ? creds.id : null;
  }

  async function api(
    method: string,
    path: string,
    raw: string,
    req: IncomingMessage,
    res: ServerResponse,
    clientId: string,
  ): Promise<void> {
    let body: Json = {};
    if (method === 'POST' && raw.trim()) {
      try {
        const parsed = JSON.parse(raw);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new Error('not an object');
        body = parsed;
      } catch {
        throw new PaypalSimError(
          400,
          'INVALID_REQUEST',
          'Request is not well-formed, syntactically incorrect, or violates schema.',
          [
            {
              issue: 'MALFORMED_REQUEST_JSON',
              description: 'The request JSON is not well formed.',
              location: 'body',
            },
          ],
        );
      }
    }
    const requestId = header(req, 'paypal-request-id');
    const representation = (header(req, 'prefer') ?? '').includes('return=representation');
    const storeKey = method === 'POST' && requestId ? `${clientId}:${path}:${requestId}` : null;
    const stored = storeKey ? state.requests.get(storeKey) : undefined;
    if (stored) return sendJson(res, stored.status, stored.body);

    const respond = (status: number, payload: unknown, release: () => void = () => {}) => {
      if (storeKey && status < 300) state.requests.set(storeKey, { status, body: payload });
      res.once('finish', release);
      if (status === 204) {
        res.writeHead(204);
        res.end();
      } else sendJson(res, status, payload);
    };

    let m: RegExpExecArray | null = null;
    const match = (verb: string, re: RegExp) => {
      if (method !== verb) return false;
      m = re.exec(path);
      return m !== null;
    };
    const param = () => decodeURIComponent((m as RegExpExecArray)[1]);

    if (match('POST', /^\/v1\/catalogs\/products$/)) {
      const { result, release } = withEvents((b) => b.productView(b.createProduct(body)));
      return respond(201, result, release);
    }
    if (match('GET', /^\/v1\/catalogs\/products\/([^/]+)$/)) {
      const product = state.products.get(param());
      if (!product) throw PaypalSimError.notFound();
      return respond(200, withEvents((b) => b.productView(product)).result);
    }
    if (match('POST', /^\/v1\/billing\/plans$/)) {
      const { result, release } = withEvents((b) => b.planView(b.createPlan(body), !representation));
      return respond(201, result, release);
    }
    if (match('GET', /^\/v1\/billing\/plans\/([^/]+)$/)) {
      const id = param();
      return respond(200, withEvents((b) => b.planView(b.plan(id), false)).result);
    }
    if (match('POST', /^\/v1\/billing\/subscriptions$/)) {
      const { result, release } = withEvents((b) =>
        b.subscriptionView(b.createSubscription(body), !representation),
      );
      return respond(201, result, release);
    }
    if (match('GET', /^\/v1\/billing\/subscriptions\/([^/]+)$/)) {
      const id = param();
      return respond(200, withEvents((b) => b.subscriptionView(b.subscription(id), false)).result);
    }
    if (match('POST', /^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/)) {
      const id = param();
      const { release } = withEvents((b) => b.cancelSubscription(id, body));
      return respond(204, null, release);
    }
    if (match('POST', /^\/v1\/notifications\/verify-webhook-signature$/)) {
      for (const field of [
        'auth_algo',
        'cert_url',
        'transmission_id',
        'transmission_sig',
        'transmission_time',
        'webhook_id',
        'webhook_event',
      ]) {
        if (body[field] === undefined || body[field] === null || body[field] === '')
          throw PaypalSimError.missing(field);
      }
      return respond(200, { verification_status: webhooks.verify(body, rawMember(raw, 'webhook_event')) });
    }
    if (match('POST', /^\/v1\/notifications\/webhooks$/)) {
      const target = typeof body.url === 'string' ? body.url : '';
      if (!/^https?:\/\//.test(target)) throw PaypalSimError.missing('url');
      const id = sim.setWebhookTarget(target);
      return respond(201, {
        id,
        url: target,
        event_types: Array.isArray(body.event_types) ? body.event_types : [{ name: '*' }],
        links: [{ href: `${baseUrl}/v1/notifications/webhooks/${id}`, rel: 'self', method: 'GET' }],
      });
    }
    if (match('GET', /^\/v1\/notifications\/webhooks-events\/([^/]+)$/)) {
      const event = state.events.get(param());
      if (!event) throw PaypalSimError.notFound();
      return respond(200, event);
    }
    throw new PaypalSimError(404, 'NOT_FOUND', `No route for ${method} ${path}`);
  }

  async function control(method: string, path: string, raw: string, res: ServerResponse): Promise<void> {
    let body: Json = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { message: 'Control requests take a JSON body.' });
      }
    }
    const sub = /^\/_sim\/subscriptions\/([^/]+)\/(approve|cancel-approval|activate)$/.exec(path);
    if (method === 'GET' && path === '/_sim/state') return sendJson(res, 200, snapshot(state));
    if (method === 'POST' && path === '/_sim/webhook') {
      const url = typeof body.url === 'string' ? body.url : null;
      const id = sim.setWebhookTarget(url, typeof body.webhookId === 'string' ? body.webhookId : undefined);
      return sendJson(res, 200, { url, webhookId: id });
    }
    if (method === 'POST' && sub) {
      const id = decodeURIComponent(sub[1]);
      if (sub[2] === 'approve') return sendJson(res, 200, sim.approve(id));
      if (sub[2] === 'cancel-approval') return sendJson(res, 200, sim.cancelApproval(id));
      sim.activate(id);
      return sendJson(res, 200, state.subscriptions.get(id));
    }
    const resend = /^\/_sim\/resend\/([^/]+)$/.exec(path);
    if (method === 'POST' && resend) {
      const t = await sim.resend(decodeURIComponent(resend[1]));
      return t
        ? sendJson(res, 200, t)
        : sendJson(res, 404, { message: 'No such event, or no webhook target set.' });
    }
    if (method === 'POST' && path === '/_sim/flush') {
      await webhooks.flush();
      return sendJson(res, 200, { transmissions: state.transmissions });
    }
    if (method === 'POST' && path === '/_sim/expire-tokens') {
      sim.expireTokens();
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_sim/reset') {
      sim.reset();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { message: `Unknown control endpoint ${method} ${path}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;

  const approvalToken = (subscriptionId: string) => {
    const found = [...state.approvals.values()].find((a) => a.subscriptionId === subscriptionId);
    if (!found) throw PaypalSimError.notFound();
    return found.token;
  };

  const sim: PaypalSim = {
    url: baseUrl,
    port: address.port,
    state,
    get webhookId() {
      return webhookId;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    setWebhookTarget(url, id) {
      if (id) webhookId = id;
      webhooks.target = url ? { url, webhookId } : null;
      return webhookId;
    },
    approve(subscriptionId) {
      const token = approvalToken(subscriptionId);
      const { result, release } = withEvents((b) => b.approve(token));
      release();
      return { redirectUrl: result };
    },
    cancelApproval(subscriptionId) {
      const token = approvalToken(subscriptionId);
      return { redirectUrl: withEvents((b) => b.cancelApproval(token)).result };
    },
    activate(subscriptionId) {
      const { release } = withEvents((b) => b.activate(subscriptionId));
      release();
    },
    cancelByBuyer(subscriptionId) {
      const { release } = withEvents((b) =>
        b.cancelSubscription(subscriptionId, { reason: 'Cancelled by the buyer' }),
      );
      release();
    },
    failPayment(subscriptionId) {
      const { release } = withEvents((b) => b.failPayment(subscriptionId));
      release();
    },
    flush: () => webhooks.flush(),
    resend: async (eventId) => (await webhooks.resend(eventId)) ?? null,
    expireTokens() {
      state.tokens.clear();
    },
    reset() {
      clearState(state);
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
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendPaypalError(res: ServerResponse, err: PaypalSimError): void {
  const issue = err.details[0]?.issue ?? err.errorName;
  sendJson(res, err.status, {
    name: err.errorName,
    message: err.message,
    debug_id: res.getHeader('paypal-debug-id'),
    ...(err.details.length > 0 ? { details: err.details } : {}),
    links: [
      {
        href: `https://developer.paypal.com/docs/api/v1/billing/subscriptions#error-${issue}`,
        rel: 'information_link',
        method: 'GET',
      },
    ],
  });
}
