/**
 * What can be done to the simulated world. The /_sim/* control API and the VoiceSim methods both
 * call these, so in-process tests and other processes drive the same code path.
 */
import { createHmac } from 'node:crypto';
import { blandTimestamp, generateCall, randomPhone } from './generate';
import { type BlandCallRecord, createSimState, type SimAccount, type SimMode, type SimState } from './state';

export class SimInputError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

export interface AddCallsOptions {
  /** Default 1. */
  count?: number;
  /** Bland fields set on every created call (status, pathway_id, transferred_to, call_length, …). */
  overrides?: Record<string, unknown>;
  /** Every call at this time (ISO or epoch ms). Without it, calls spread over the last `spreadDays`. */
  createdAt?: string | number;
  /** Default 14. */
  spreadDays?: number;
}

export interface ModeOptions {
  /** Delay per answer in slow mode. Default 20 s. */
  slowMs?: number;
  /** Only this many affected answers, then back to normal. Default: until changed. */
  times?: number;
  /** Retry-After sent with 429s. Default 1. */
  retryAfterSeconds?: number;
}

export interface PlaceTestCallOptions {
  webhookUrl: string;
  /** The account the call lands in (created when unknown); without it the call has no account. */
  apiKey?: string;
  /** When set, X-Webhook-Signature = hex HMAC-SHA256 of the raw body with this secret. */
  signingSecret?: string;
  overrides?: Record<string, unknown>;
}

/** How long a call placed through POST /v1/calls "lasts" before its webhook goes out. */
export const DISPATCHED_CALL_MS = 500;

export interface SendEventOptions {
  webhookUrl: string;
  call_id: string;
  message?: string;
  category?: string;
  log_level?: string;
  /** Makes it a follow-up event ({event_type, call_id, …}) instead of a live log line. */
  event_type?: string;
  /** With event_type: the call's full details plus event_type (Bland's delayed combined webhook). */
  combined?: boolean;
  signingSecret?: string;
}

export interface WebhookAnswer {
  /** HTTP status the webhook answered; 0 when it could not be reached. */
  status: number;
  /** The answer's body (parsed when JSON), or the network error text. */
  body: unknown;
}

const MAX_CALLS_PER_REQUEST = 50_000;
const WEBHOOK_TIMEOUT_MS = 10_000;

function toMs(value: string | number): number {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new SimInputError('createdAt must be an ISO date or epoch milliseconds');
  return ms;
}

export function createSimActions(state: SimState, baseUrl: () => string) {
  function addKey(apiKey: string): SimAccount {
    let account = state.accounts.get(apiKey);
    if (!account) {
      account = { apiKey, agentNumber: randomPhone(), calls: [] };
      state.accounts.set(apiKey, account);
    }
    return account;
  }

  function storeCall(account: SimAccount, details: BlandCallRecord): void {
    const createdAtMs = Date.parse(details.created_at);
    const call = { account: account.apiKey, createdAtMs, updatedAtMs: Date.now(), details };
    const previous = state.callsById.get(details.call_id);
    if (previous) {
      const owner = state.accounts.get(previous.account);
      if (owner) owner.calls = owner.calls.filter((c) => c !== previous);
    }
    account.calls.push(call);
    state.callsById.set(details.call_id, call);
  }

  function createCalls(account: SimAccount, options: AddCallsOptions): BlandCallRecord[] {
    const count = options.count ?? 1;
    if (!Number.isInteger(count) || count < 0 || count > MAX_CALLS_PER_REQUEST) {
      throw new SimInputError(`count must be an integer from 0 to ${MAX_CALLS_PER_REQUEST}`);
    }
    const now = Date.now();
    const fixed = options.createdAt === undefined ? null : toMs(options.createdAt);
    const spreadMs = (options.spreadDays ?? 14) * 86_400_000;
    const created: BlandCallRecord[] = [];
    for (let i = 0; i < count; i++) {
      // Spread calls end a few minutes ago, so none of them lies in the future.
      const createdAtMs = fixed ?? now - 5 * 60_000 - Math.floor(Math.random() * spreadMs);
      const details = generateCall(state, {
        createdAtMs,
        agentNumber: account.agentNumber,
        baseUrl: baseUrl(),
        overrides: options.overrides,
      });
      storeCall(account, details);
      created.push(details);
    }
    return created;
  }

  function addCalls(apiKey: string, options: AddCallsOptions = {}): BlandCallRecord[] {
    if (!apiKey) throw new SimInputError('apiKey is required');
    return createCalls(addKey(apiKey), options);
  }

  function updateCall(callId: string, patch: Record<string, unknown>): BlandCallRecord {
    const call = state.callsById.get(callId);
    if (!call) throw new SimInputError('Unknown call', 404);
    Object.assign(call.details, patch, { call_id: callId });
    call.updatedAtMs = Date.now();
    if (typeof patch.created_at === 'string') call.createdAtMs = Date.parse(patch.created_at);
    return call.details;
  }

  function setMode(mode: SimMode, options: ModeOptions = {}): void {
    state.mode = mode;
    if (options.slowMs !== undefined) state.slowMs = options.slowMs;
    if (options.retryAfterSeconds !== undefined) state.retryAfterSeconds = options.retryAfterSeconds;
    state.modeRemaining = options.times ?? null;
    state.flakyCounter = 0;
  }

  function expireRecording(callId: string): void {
    if (!state.callsById.has(callId)) throw new SimInputError('Unknown call', 404);
    state.expiredRecordings.add(callId);
  }

  function addPathway(id: string, name: string, description = ''): void {
    state.pathways.set(id, { name, description });
  }

  async function post(url: string, payload: unknown, signingSecret?: string): Promise<WebhookAnswer> {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'bland-sim/1.0',
    };
    if (signingSecret)
      headers['x-webhook-signature'] = createHmac('sha256', signingSecret).update(body).digest('hex');
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      const text = (await response.text()).slice(0, 65_536);
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON: hand back the text as it came.
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      return {
        status: 0,
        body: error instanceof Error ? `${error.message}${causeOf(error)}` : String(error),
      };
    }
  }

  function assertUrl(value: string): void {
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new SimInputError('webhookUrl must be an http(s) URL');
    }
  }

  /** A finished call, then Bland's post-call webhook: the call-details object as JSON. */
  async function placeTestCall(options: PlaceTestCallOptions): Promise<{ call_id: string } & WebhookAnswer> {
    assertUrl(options.webhookUrl);
    // Without a key the call lands in the keyless account '', which no request can authenticate as.
    // A finished call unless asked for one in progress, which has no status yet (as Bland's).
    const finished = options.overrides?.completed === false ? {} : { status: 'completed' };
    const [details] = createCalls(addKey(options.apiKey ?? ''), {
      overrides: { ...finished, ...options.overrides },
      createdAt: Date.now() - 90_000,
    });
    // A test that spells out the post-call lines (and their clock times) reads those lines back:
    // the corrected transcript would replace them, so it answers 404 unless the test
    // sets it up itself (state.correctedAnswers).
    if (options.overrides?.transcripts) state.correctedAnswers.set(details.call_id, 'missing');
    const answer = await post(options.webhookUrl, details, options.signingSecret);
    return { call_id: details.call_id, ...answer };
  }

  /**
   * Bland's POST /v1/calls: the call is queued at once; it "ends" DISPATCHED_CALL_MS later, when
   * Bland posts the call's details to the request's `webhook` (if any). Outbound: from the
   * account's number to the number asked for.
   */
  function dispatchCall(
    apiKey: string,
    request: { phoneNumber: string; task: string; webhook: string | null },
  ) {
    if (request.webhook) assertUrl(request.webhook);
    const [details] = createCalls(addKey(apiKey), {
      overrides: {
        status: 'completed',
        inbound: false,
        to: request.phoneNumber,
        from: addKey(apiKey).agentNumber,
        concatenated_transcript: `assistant: ${request.task}`,
        transcripts: [{ id: 1, text: request.task, user: 'assistant', created_at: new Date().toISOString() }],
      },
      createdAt: Date.now(),
    });
    const { webhook } = request;
    if (webhook) setTimeout(() => void post(webhook, details).catch(() => {}), DISPATCHED_CALL_MS).unref();
    return { status: 'success' as const, call_id: details.call_id, message: 'Call successfully queued.' };
  }

  async function sendEvent(options: SendEventOptions): Promise<WebhookAnswer> {
    assertUrl(options.webhookUrl);
    const call = state.callsById.get(options.call_id);
    const payload: Record<string, unknown> = options.event_type
      ? options.combined && call
        ? // Bland's delayed combined webhook (after a transfer, say): the whole call plus event_type.
          { ...call.details, event_type: options.event_type }
        : {
            event_type: options.event_type,
            call_id: options.call_id,
            message: options.message ?? null,
            created_at: blandTimestamp(Date.now()),
          }
      : {
          message: options.message ?? 'Call connected',
          call_id: options.call_id,
          category: options.category ?? 'call',
          log_level: options.log_level ?? 'info',
        };
    return post(options.webhookUrl, payload, options.signingSecret);
  }

  function reset(): void {
    const fresh = createSimState();
    Object.assign(state, fresh);
  }

  return {
    addKey,
    addCalls,
    updateCall,
    setMode,
    expireRecording,
    addPathway,
    placeTestCall,
    dispatchCall,
    sendEvent,
    reset,
  };
}

export type SimActions = ReturnType<typeof createSimActions>;

function causeOf(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `: ${cause.message}` : '';
}
