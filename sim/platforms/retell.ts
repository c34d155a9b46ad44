/**
 * A local stand-in for Retell: POST /v3/list-calls (filter_criteria on
 * start_timestamp, end_timestamp and call_status, sort_order, limit, pagination_key → {items,
 * has_more, pagination_key}; a call that never connected has no start_timestamp, so a filter on
 * it leaves the call out, as a filter on a missing field does),
 * GET /v2/get-call/{call_id}, DELETE /v2/delete-call/{call_id} (204, the call gone afterwards;
 * issue 38), GET /get-agent/{agent_id}, with the API key as a Bearer token;
 * public recording URLs; and the call_started, call_ended and call_analyzed webhooks signed the
 * way Retell's SDK verifies them (X-Retell-Signature: v=<ms>,d=<hex HMAC-SHA256 of body + ms>,
 * keyed with the account's API key). Shapes follow Retell's published API reference.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import {
  accountOf,
  createPlatformApp,
  createPlatformState,
  listen,
  type PlatformMode,
  platformControls,
  postWebhook,
  randomPhone,
  SAMPLE_CONVERSATION,
} from './common';

export type RetellCall = Record<string, unknown> & {
  call_id: string;
  /** Absent on a call that never connected. */
  start_timestamp?: number;
  end_timestamp?: number;
  call_status?: string;
};

/** The demo account's API key (`npm run sim`, `npm run dev`). */
export const RETELL_DEMO_KEY = 'key_retell_demo';

export const RETELL_SIM_AGENT = {
  agent_id: 'agent_9a1c3f5e7b2d4068a1c3e5f7',
  agent_name: 'Front Desk Agent',
};

export interface RetellTestCall {
  webhookUrl: string;
  apiKey: string;
  /** Sign with another key (a forged delivery). */
  signWith?: string;
  overrides?: Record<string, unknown>;
}

export interface AddRetellCalls {
  count?: number;
  endAt?: number;
  notConnected?: boolean;
}

export interface RetellSim {
  url: string;
  accounts: Map<string, Map<string, RetellCall>>;
  addKey(apiKey: string): void;
  /** Ended calls, one a minute back from `endAt`; `notConnected`: dialled, never answered. */
  addCalls(apiKey: string, options?: AddRetellCalls): RetellCall[];
  /** A finished call: stored, then call_started, call_ended and call_analyzed posted, signed. */
  placeTestCall(options: RetellTestCall): Promise<{ call: RetellCall; status: number; body: string }>;
  setMode(mode: PlatformMode, times?: number): void;
  requests(): number;
  reset(): void;
  close(): Promise<void>;
}

export function retellSign(body: string, apiKey: string, at = Date.now()): string {
  return `v=${at},d=${createHmac('sha256', apiKey)
    .update(body + at)
    .digest('hex')}`;
}

/**
 * A line's words as Retell times them (`words: [{word, start, end}]`, seconds of audio from the
 * call's start): spoken from `at`, 0.3 s a word, within 3 s.
 */
function timedWords(text: string, at: number): { word: string; start: number; end: number }[] {
  const words = text.split(/\s+/).filter(Boolean);
  const each = Math.min(0.3, 3 / words.length);
  const seconds = (n: number) => Math.round(n * 1000) / 1000;
  return words.map((word, i) => ({ word, start: seconds(at + i * each), end: seconds(at + (i + 1) * each) }));
}

function retellError(reply: FastifyReply, statusCode: number, message: string) {
  return reply.code(statusCode).send({ status: 'error', message });
}

export async function startRetellSim(opts: { port?: number; host?: string } = {}): Promise<RetellSim> {
  const state = createPlatformState<RetellCall>();
  const { app, account } = createPlatformApp(state, retellError);
  let base = '';

  function makeCall(end: number, overrides: Record<string, unknown> = {}): RetellCall {
    const callId = `call_${randomBytes(14).toString('hex')}`;
    const duration = 30_000 + Math.floor(Math.random() * 150_000);
    return {
      call_type: 'phone_call',
      call_id: callId,
      agent_id: RETELL_SIM_AGENT.agent_id,
      agent_name: RETELL_SIM_AGENT.agent_name,
      agent_version: 3,
      call_status: 'ended',
      direction: 'inbound',
      from_number: randomPhone(),
      to_number: '+14155550123',
      start_timestamp: end - duration,
      end_timestamp: end,
      duration_ms: duration,
      disconnection_reason: 'user_hangup',
      transcript: SAMPLE_CONVERSATION.map((l) => `${l.role === 'agent' ? 'Agent' : 'User'}: ${l.text}`).join(
        '\n',
      ),
      transcript_object: SAMPLE_CONVERSATION.map((l, i) => ({
        role: l.role,
        content: l.text,
        words: timedWords(l.text, (i + 1) * 4),
      })),
      recording_url: `${base}/recordings/${callId}.mp3`,
      call_analysis: {
        call_summary: 'The caller booked a consultation for Friday at nine thirty.',
        user_sentiment: 'Positive',
        call_successful: true,
        in_voicemail: false,
        custom_analysis_data: { booked: true },
      },
      call_cost: {
        combined_cost: Math.round((duration / 60_000) * 7 * 100) / 100,
        product_costs: [{ product: 'retell_platform', unit_price: 0.1167, cost: 1 }],
        total_duration_seconds: Math.round(duration / 1000),
        total_duration_unit_price: 0.1167,
      },
      metadata: {},
      ...overrides,
    };
  }

  app.post<{ Body: Record<string, unknown> | null }>('/v3/list-calls', async (request, reply) => {
    const calls = account(request);
    if (!calls) return retellError(reply, 401, 'API key is invalid');
    const body = request.body ?? {};
    const limit = body.limit === undefined ? 50 : Number(body.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      return retellError(reply, 400, 'limit must be 1..1000');
    type NumberFilter = { op?: string; value?: unknown };
    const filter = (body.filter_criteria ?? {}) as {
      start_timestamp?: NumberFilter;
      end_timestamp?: NumberFilter;
      call_status?: { op?: string; value?: unknown };
    };
    const atLeast = (f: NumberFilter | undefined, value: number | undefined) =>
      f?.op !== 'ge' || (value !== undefined && value >= Number(f.value));
    const statuses = Array.isArray(filter.call_status?.value) ? (filter.call_status.value as string[]) : null;
    const ascending = body.sort_order === 'ascending';
    const when = (c: RetellCall) => c.start_timestamp ?? c.end_timestamp ?? 0;
    const all = [...calls.values()]
      .filter(
        (c) =>
          atLeast(filter.start_timestamp, c.start_timestamp) &&
          atLeast(filter.end_timestamp, c.end_timestamp) &&
          (statuses === null || statuses.includes(String(c.call_status))),
      )
      .sort((a, b) => (ascending ? 1 : -1) * (when(a) - when(b)) || (a.call_id < b.call_id ? -1 : 1));
    // Retell's key is opaque; here it is the id of the last call of the page before.
    let start = 0;
    if (typeof body.pagination_key === 'string') {
      const at = all.findIndex((c) => c.call_id === body.pagination_key);
      if (at === -1) return retellError(reply, 400, 'Invalid pagination_key');
      start = at + 1;
    }
    const items = all.slice(start, start + limit);
    const hasMore = start + limit < all.length;
    return { items, has_more: hasMore, ...(hasMore ? { pagination_key: items.at(-1)?.call_id } : {}) };
  });

  app.get<{ Params: { id: string } }>('/v2/get-call/:id', async (request, reply) => {
    const calls = account(request);
    if (!calls) return retellError(reply, 401, 'API key is invalid');
    return calls.get(request.params.id) ?? retellError(reply, 404, 'Call not found');
  });

  /**
   * Retell's deleteCall: 204 and no body. Its document lists no 404 for this operation; an id the
   * key cannot see is its 422 with the documented message.
   */
  app.delete<{ Params: { id: string } }>('/v2/delete-call/:id', async (request, reply) => {
    const calls = account(request);
    if (!calls) return retellError(reply, 401, 'API key is invalid');
    if (!calls.delete(request.params.id))
      return retellError(reply, 422, 'Cannot find requested asset under given api key.');
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/get-agent/:id', async (request, reply) => {
    if (!account(request)) return retellError(reply, 401, 'API key is invalid');
    return request.params.id === RETELL_SIM_AGENT.agent_id
      ? { ...RETELL_SIM_AGENT, version: 3 }
      : retellError(reply, 404, 'Agent not found');
  });

  async function placeTestCall(options: RetellTestCall) {
    const call = makeCall(Date.now(), options.overrides);
    accountOf(state, options.apiKey).set(call.call_id, call);
    const key = options.signWith ?? options.apiKey;
    const send = (body: string) =>
      postWebhook(options.webhookUrl, body, { 'x-retell-signature': retellSign(body, key) });
    const {
      call_analysis: _analysis,
      transcript: _t,
      transcript_object: _o,
      end_timestamp: _e,
      duration_ms: _d,
      disconnection_reason: _r,
      recording_url: _u,
      call_cost: _c,
      ...started
    } = call;
    await send(JSON.stringify({ event: 'call_started', call: { ...started, call_status: 'ongoing' } })).catch(
      () => null,
    );
    const { call_analysis: _a, ...ended } = call;
    await send(JSON.stringify({ event: 'call_ended', call: ended })).catch(() => null);
    const answer = await send(JSON.stringify({ event: 'call_analyzed', call }));
    return { call, ...answer };
  }

  app.post<{ Body: RetellTestCall }>('/_sim/place-test-call', async (request) => {
    const { call, status, body } = await placeTestCall(request.body);
    return { callId: call.call_id, webhookStatus: status, webhookBody: body };
  });
  app.post<{ Body: { apiKey: string; count?: number } }>('/_sim/add-calls', async (request) => ({
    ids: addCalls(request.body.apiKey, { count: request.body.count }).map((c) => c.call_id),
  }));

  /** A dialled call nobody answered: Retell has no start, no duration, no transcript for it. */
  function notConnected(end: number): RetellCall {
    const {
      start_timestamp: _s,
      duration_ms: _d,
      transcript: _t,
      transcript_object: _o,
      recording_url: _u,
      call_analysis: _a,
      ...call
    } = makeCall(end, {
      call_status: 'not_connected',
      disconnection_reason: 'dial_no_answer',
      direction: 'outbound',
    });
    return call;
  }

  function addCalls(apiKey: string, options: AddRetellCalls = {}) {
    const end = options.endAt ?? Date.now();
    const out: RetellCall[] = [];
    for (let i = 0; i < (options.count ?? 1); i++) {
      const at = end - i * 60_000;
      const call = options.notConnected ? notConnected(at) : makeCall(at);
      accountOf(state, apiKey).set(call.call_id, call);
      out.push(call);
    }
    return out;
  }

  base = await listen(app, opts);
  return { url: base, addCalls, placeTestCall, ...platformControls(state, app) };
}
