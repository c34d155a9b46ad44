/**
 * A local stand-in for Vapi: GET /call (newest first, createdAt filters, limit),
 * GET /call/{id}, DELETE /call/{id} (200 with the deleted call, which is gone afterwards; issue
 * 38), GET /assistant/{id}, GET /phone-number/{id} with the private key as a Bearer
 * token, Vapi's error bodies, public recording URLs, and server messages (status-update,
 * end-of-call-report) posted to a server URL signed as its credential would: by default an HMAC
 * credential left at Vapi's defaults (HmacAuthenticationPlan: x-signature = hex HMAC-SHA256 of
 * "{timestamp}.{body}", x-timestamp), or the older forms. Calls on the account's saved number
 * carry `phoneNumberId` only, as Vapi's do. Shapes follow Vapi's published API
 * (Call, Artifact, Analysis, ServerMessageEndOfCallReport, PhoneNumber).
 */
import { createHmac } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import {
  accountOf,
  createPlatformApp,
  createPlatformState,
  listen,
  newId,
  type PlatformMode,
  platformControls,
  postWebhook,
  randomPhone,
  SAMPLE_CONVERSATION,
} from './common';

export type VapiCall = Record<string, unknown> & { id: string; createdAt: string };

/** The demo account's private key (`npm run sim`, `npm run dev`). */
export const VAPI_DEMO_KEY = 'vapi_demo_key';

export const VAPI_SIM_ASSISTANT = { id: '5b0a4a6e-4d2b-4f5e-9a51-3f1c2d9b8a10', name: 'Booking Assistant' };
/** The account's saved number: calls name it by `phoneNumberId`, GET /phone-number/{id} gives its digits. */
export const VAPI_SIM_PHONE_NUMBER = {
  id: '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2918',
  number: '+14155550100',
  name: 'Front desk line',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How the server URL's credential signs a delivery. `hmac` (the default) is an HMAC credential at
 * Vapi's defaults; `hmac-body` one set to sign the body alone into x-vapi-signature; `header` the
 * legacy X-Vapi-Secret; `bearer` an Authorization header.
 */
export interface VapiAuth {
  secret: string;
  kind?: 'hmac' | 'hmac-body' | 'header' | 'bearer';
  encoding?: 'hex' | 'base64';
  /** The x-timestamp sent and signed (default: now, in milliseconds). */
  at?: number;
}

export interface VapiTestCall {
  webhookUrl: string;
  apiKey: string;
  auth?: VapiAuth | null;
  overrides?: Record<string, unknown>;
}

/** The headers a Vapi credential sends with `body` (none without one). */
export function vapiAuthHeaders(body: string, auth: VapiAuth | null | undefined): Record<string, string> {
  if (!auth) return {};
  const digest = (payload: string) =>
    createHmac('sha256', auth.secret)
      .update(payload)
      .digest(auth.encoding ?? 'hex');
  switch (auth.kind ?? 'hmac') {
    case 'hmac': {
      const at = String(auth.at ?? Date.now());
      return { 'x-signature': digest(`${at}.${body}`), 'x-timestamp': at };
    }
    case 'hmac-body':
      return { 'x-vapi-signature': digest(body) };
    case 'bearer':
      return { authorization: `Bearer ${auth.secret}` };
    default:
      return { 'x-vapi-secret': auth.secret };
  }
}

export interface VapiSim {
  url: string;
  accounts: Map<string, Map<string, VapiCall>>;
  addKey(apiKey: string): void;
  /** Ended calls, one a minute back from `endAt` (default now); `sameInstant` puts them all at one ms. */
  addCalls(apiKey: string, options?: { count?: number; endAt?: number; sameInstant?: boolean }): VapiCall[];
  /** A finished call: stored, then its status-update and end-of-call-report posted to the URL. */
  placeTestCall(options: VapiTestCall): Promise<{ call: VapiCall; status: number; body: string }>;
  setMode(mode: PlatformMode, times?: number): void;
  /** Answers at most `n` calls a page whatever the limit asked (null: as asked). */
  setPageCap(n: number | null): void;
  /** The API requests received since the last reset, as "GET /path?query". */
  requestLog(): string[];
  requests(): number;
  reset(): void;
  close(): Promise<void>;
}

function vapiError(reply: FastifyReply, statusCode: number, message: string) {
  const error = statusCode === 401 ? 'Unauthorized' : statusCode === 404 ? 'Not Found' : 'Bad Request';
  return reply.code(statusCode).send({ message, error, statusCode });
}

export async function startVapiSim(opts: { port?: number; host?: string } = {}): Promise<VapiSim> {
  const state = createPlatformState<VapiCall>();
  const { app, account } = createPlatformApp(state, vapiError);
  let base = '';
  let pageCap: number | null = null;
  let log: string[] = [];
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/_sim') && !request.url.startsWith('/recordings/'))
      log.push(`${request.method} ${request.url}`);
  });

  function makeCall(at: number, overrides: Record<string, unknown> = {}): VapiCall {
    const id = newId();
    const duration = 30 + Math.floor(Math.random() * 150);
    const started = new Date(at - duration * 1000).toISOString();
    const customer = { number: randomPhone() };
    return {
      id,
      orgId: '2c1a6f0e-8d4e-4a4f-b3a1-0c5b2c7d9e11',
      type: 'outboundPhoneCall',
      createdAt: started,
      updatedAt: new Date(at).toISOString(),
      startedAt: started,
      endedAt: new Date(at).toISOString(),
      status: 'ended',
      endedReason: 'customer-ended-call',
      cost: Math.round(duration * 0.0025 * 10_000) / 10_000,
      assistantId: VAPI_SIM_ASSISTANT.id,
      // A call on a saved number names it; only a transient number comes whole (`phoneNumber`).
      phoneNumberId: VAPI_SIM_PHONE_NUMBER.id,
      customer,
      analysis: {
        summary: 'The caller booked a consultation for Friday at nine thirty.',
        structuredData: { booked: true, day: 'Friday' },
        successEvaluation: 'true',
      },
      artifact: {
        recordingUrl: `${base}/recordings/${id}.mp3`,
        transcript: SAMPLE_CONVERSATION.map((l) => `${l.role === 'agent' ? 'AI' : 'User'}: ${l.text}`).join(
          '\n',
        ),
        messages: [
          {
            role: 'system',
            message: 'You are a booking assistant.',
            time: at - duration * 1000,
            secondsFromStart: 0,
          },
          ...SAMPLE_CONVERSATION.map((l, i) => ({
            role: l.role === 'agent' ? 'bot' : 'user',
            message: l.text,
            time: at - duration * 1000 + (i + 1) * 4000,
            endTime: at - duration * 1000 + (i + 1) * 4000 + 3000,
            secondsFromStart: (i + 1) * 4,
          })),
        ],
      },
      ...overrides,
    };
  }

  app.get<{ Querystring: Record<string, string> }>('/call', async (request, reply) => {
    const calls = account(request);
    if (!calls)
      return vapiError(
        reply,
        401,
        'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
      );
    const q = request.query;
    const limit = q.limit === undefined ? 100 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      return vapiError(reply, 400, 'limit must not be greater than 1000');
    const bound = (name: string) => (q[name] === undefined ? null : Date.parse(q[name]));
    const ge = bound('createdAtGe');
    const gt = bound('createdAtGt');
    const le = bound('createdAtLe');
    const lt = bound('createdAtLt');
    const items = [...calls.values()]
      .filter((c) => {
        const at = Date.parse(c.createdAt);
        return (
          (ge === null || at >= ge) &&
          (gt === null || at > gt) &&
          (le === null || at <= le) &&
          (lt === null || at < lt)
        );
      })
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? -1 : 1));
    return items.slice(0, Math.min(limit, pageCap ?? limit));
  });

  app.get<{ Params: { id: string } }>('/call/:id', async (request, reply) => {
    const calls = account(request);
    if (!calls) return vapiError(reply, 401, 'Invalid Key.');
    if (!UUID.test(request.params.id)) return vapiError(reply, 400, 'id must be a UUID');
    const call = calls.get(request.params.id);
    return call ?? vapiError(reply, 404, 'Call not found');
  });

  /**
   * Vapi's CallController_deleteCallData: a JSON body (DeleteCallDTO) whose `ids` would make it an
   * asynchronous bulk delete, which this stand-in does not do (400, so no test believes it did).
   */
  app.delete<{ Params: { id: string }; Body: { ids?: unknown } | null }>(
    '/call/:id',
    async (request, reply) => {
      const calls = account(request);
      if (!calls) return vapiError(reply, 401, 'Invalid Key.');
      if (request.body?.ids !== undefined) return vapiError(reply, 400, 'bulk delete is not simulated');
      if (!UUID.test(request.params.id)) return vapiError(reply, 400, 'id must be a UUID');
      const call = calls.get(request.params.id);
      if (!call) return vapiError(reply, 404, 'Call not found');
      calls.delete(call.id);
      return call;
    },
  );

  app.get<{ Params: { id: string } }>('/assistant/:id', async (request, reply) => {
    if (!account(request)) return vapiError(reply, 401, 'Invalid Key.');
    if (request.params.id !== VAPI_SIM_ASSISTANT.id) return vapiError(reply, 404, 'Assistant not found');
    return { ...VAPI_SIM_ASSISTANT, orgId: '2c1a6f0e-8d4e-4a4f-b3a1-0c5b2c7d9e11' };
  });

  app.get<{ Params: { id: string } }>('/phone-number/:id', async (request, reply) => {
    if (!account(request)) return vapiError(reply, 401, 'Invalid Key.');
    if (!UUID.test(request.params.id)) return vapiError(reply, 400, 'id must be a UUID');
    if (request.params.id !== VAPI_SIM_PHONE_NUMBER.id)
      return vapiError(reply, 404, 'Phone number not found');
    return {
      ...VAPI_SIM_PHONE_NUMBER,
      provider: 'vapi',
      orgId: '2c1a6f0e-8d4e-4a4f-b3a1-0c5b2c7d9e11',
      status: 'active',
      createdAt: '2026-01-05T09:00:00.000Z',
      updatedAt: '2026-01-05T09:00:00.000Z',
    };
  });

  async function placeTestCall(options: VapiTestCall) {
    const call = makeCall(Date.now(), options.overrides);
    accountOf(state, options.apiKey).set(call.id, call);
    const snapshot = {
      id: call.id,
      orgId: call.orgId,
      type: call.type,
      createdAt: call.createdAt,
      updatedAt: call.createdAt,
      status: 'in-progress',
      assistantId: call.assistantId,
      phoneNumberId: call.phoneNumberId,
      customer: call.customer,
    };
    const report = {
      message: {
        type: 'end-of-call-report',
        timestamp: Date.now(),
        endedReason: call.endedReason,
        cost: call.cost,
        startedAt: call.startedAt,
        endedAt: call.endedAt,
        artifact: call.artifact,
        analysis: call.analysis,
        customer: call.customer,
        phoneNumber: { provider: 'vapi', id: VAPI_SIM_PHONE_NUMBER.id, number: VAPI_SIM_PHONE_NUMBER.number },
        call: snapshot,
      },
    };
    const sign = (body: string) => vapiAuthHeaders(body, options.auth);
    const status = JSON.stringify({
      message: { type: 'status-update', status: 'in-progress', call: snapshot },
    });
    await postWebhook(options.webhookUrl, status, sign(status)).catch(() => null);
    const body = JSON.stringify(report);
    const answer = await postWebhook(options.webhookUrl, body, sign(body));
    return { call, ...answer };
  }

  app.post<{ Body: VapiTestCall }>('/_sim/place-test-call', async (request) => {
    const { call, status, body } = await placeTestCall(request.body);
    return { callId: call.id, webhookStatus: status, webhookBody: body };
  });
  app.post<{ Body: { apiKey: string; count?: number } }>('/_sim/add-calls', async (request) => ({
    ids: addCalls(request.body.apiKey, { count: request.body.count }).map((c) => c.id),
  }));

  function addCalls(apiKey: string, options: { count?: number; endAt?: number; sameInstant?: boolean } = {}) {
    const end = options.endAt ?? Date.now();
    const out: VapiCall[] = [];
    for (let i = 0; i < (options.count ?? 1); i++) {
      const call = makeCall(end - (options.sameInstant ? 0 : i * 60_000));
      if (options.sameInstant) call.createdAt = new Date(end - 60_000).toISOString();
      accountOf(state, apiKey).set(call.id, call);
      out.push(call);
    }
    return out;
  }

  base = await listen(app, opts);
  const controls = platformControls(state, app);
  return {
    url: base,
    addCalls,
    placeTestCall,
    ...controls,
    setPageCap: (n: number | null) => {
      pageCap = n;
    },
    requestLog: () => [...log],
    reset() {
      controls.reset();
      pageCap = null;
      log = [];
    },
  };
}
