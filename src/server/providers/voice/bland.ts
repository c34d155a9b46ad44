/**
 * The Bland AI adapter: the only code that sends a client's API key anywhere, and only to the
 * configured base URL. Owns the HTTP details: bounded concurrency per key, retries with backoff on
 * 429/5xx/network failures, timeouts, and translating answers into typed errors (errors.ts).
 * It never buffers a recording; it hands back the provider's stream.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { blandListResponseSchema, blandPathwaySchema, isBlandId, parseBlandCall } from './bland-payload';
import { parseBlandWebhook } from './bland-webhook';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  RecordingExpiredError,
  VoiceProviderError,
} from './errors';
import type {
  ListCallsQuery,
  ListCallsResult,
  NormalizedCall,
  RecordingStream,
  TestCallRequest,
  VoiceProvider,
} from './types';

export interface BlandProviderOptions {
  baseUrl: string;
  /** Per attempt; for recordings only until the headers arrive. Default 15 s. */
  timeoutMs?: number;
  /** Requests in flight per API key (Bland documents no read limits; stay polite). Default 3. */
  maxConcurrentPerKey?: number;
  /** Retries after the first attempt on 429, 5xx and network errors. Default 3. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, with jitter. Default 300 ms. */
  retryBaseMs?: number;
  /** Longest single wait, Retry-After included; a longer Retry-After means give up. Default 10 s. */
  maxRetryDelayMs?: number;
  /** Pathway names are cached this long per key. Default 10 min. */
  pathwayCacheMs?: number;
}

const RECORDING_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];
const PATHWAY_CACHE_MAX = 1_000;

type Release = () => void;

/** A tiny semaphore per key, so one client's sync cannot flood the provider with its key. */
function createKeyedSemaphore(limit: number) {
  const slots = new Map<string, { active: number; waiting: Array<() => void> }>();
  return async function acquire(key: string): Promise<Release> {
    let slot = slots.get(key);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      slots.set(key, slot);
    }
    const s = slot;
    if (s.active >= limit) await new Promise<void>((resolve) => s.waiting.push(resolve));
    else s.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = s.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays counted for it.
      if (next) next();
      else if (--s.active === 0) slots.delete(key);
    };
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

const keyId = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex').slice(0, 32);

interface SendOptions {
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** Recordings: stop the timeout once headers arrive and let the body stream freely. */
  stream?: boolean;
  /** A JSON body, sent with POST. A POST is never retried: it could place a second call. */
  json?: unknown;
}

interface SendResult {
  response: Response;
  /**
   * Ends the request: clears its timeout and frees the key's slot. Call once the body has been
   * read; streams are already done when send returns (the body then flows without either).
   */
  done: () => void;
  timedOut: () => boolean;
}

export function createBlandProvider(options: BlandProviderOptions): VoiceProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 300;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const pathwayCacheMs = options.pathwayCacheMs ?? 10 * 60_000;
  const acquire = createKeyedSemaphore(Math.max(1, options.maxConcurrentPerKey ?? 3));
  const pathwayCache = new Map<string, { name: string; expires: number }>();

  function buildUrl(path: string, query?: Record<string, string | undefined>): string {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return url.toString();
  }

  function backoff(attempt: number, retryAfter: number | null): number | null {
    const exp = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** attempt);
    const jittered = exp / 2 + Math.random() * (exp / 2);
    if (retryAfter !== null && retryAfter > maxRetryDelayMs) return null;
    return Math.max(jittered, retryAfter ?? 0);
  }

  /**
   * One logical request: waits for a slot for this key, then tries up to 1 + maxRetries times.
   * Returns any non-retryable answer (the caller interprets 404 etc.); throws on 401/403 and
   * when retries are exhausted. The slot is held through backoff so retries stay within the bound.
   */
  const retriesFor = (opts: SendOptions) => (opts.json === undefined ? maxRetries : 0);

  async function send(apiKey: string, path: string, opts: SendOptions = {}): Promise<SendResult> {
    const release = await acquire(keyId(apiKey));
    let lastStatus: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const controller = new AbortController();
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
        let response: Response;
        try {
          response = await fetch(buildUrl(path, opts.query), {
            method: opts.json === undefined ? 'GET' : 'POST',
            headers: {
              authorization: apiKey,
              accept: 'application/json',
              ...(opts.json === undefined ? {} : { 'content-type': 'application/json' }),
              ...opts.headers,
            },
            body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
            signal: controller.signal,
          });
        } catch {
          clearTimeout(timer);
          // A provider that does not answer within the timeout is not retried: the wait is already long.
          if (timedOut) throw new ProviderUnavailableError(undefined);
          const delay = attempt < retriesFor(opts) ? backoff(attempt, null) : null;
          if (delay === null) throw new ProviderUnavailableError(lastStatus);
          await sleep(delay);
          continue;
        }
        const status = response.status;
        if (status === 401 || status === 403 || status === 429 || status >= 500) {
          clearTimeout(timer);
          await response.body?.cancel().catch(() => {});
          if (status === 401 || status === 403) throw new ProviderAuthError(status);
          lastStatus = status;
          const wait = retryAfterMs(response.headers.get('retry-after'));
          const delay = attempt < retriesFor(opts) ? backoff(attempt, wait) : null;
          if (delay === null) throw new ProviderUnavailableError(status);
          await sleep(delay);
          continue;
        }
        const done = () => {
          clearTimeout(timer);
          release();
        };
        if (opts.stream) done();
        return { response, done, timedOut: () => timedOut };
      }
    } catch (error) {
      release();
      throw error;
    }
  }

  async function readJson(result: SendResult): Promise<unknown> {
    try {
      return await result.response.json();
    } catch {
      if (result.timedOut()) throw new ProviderUnavailableError(undefined);
      throw new ProviderUnavailableError(
        result.response.status,
        'The voice provider sent an answer we could not read',
      );
    } finally {
      result.done();
    }
  }

  async function discard(result: SendResult): Promise<void> {
    result.done();
    await result.response.body?.cancel().catch(() => {});
  }

  function unexpected(status: number): VoiceProviderError {
    return new VoiceProviderError(
      `The voice provider answered with an unexpected error (HTTP ${status})`,
      status,
    );
  }

  /** A second guard where ids become URL paths: nothing but an id's characters reaches the provider. */
  function validCallId(callId: string): boolean {
    return isBlandId(callId);
  }

  async function getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }> {
    if (!validCallId(callId)) throw new ProviderNotFoundError();
    const result = await send(apiKey, `/v1/calls/${encodeURIComponent(callId)}`);
    const status = result.response.status;
    // Bland answers an unknown or malformed id with 404 (sometimes 400).
    if (status === 404 || status === 400) {
      await discard(result);
      throw new ProviderNotFoundError(undefined, status);
    }
    if (!result.response.ok) {
      await discard(result);
      throw unexpected(status);
    }
    const raw = await readJson(result);
    // Some deployments wrap the object as {data: {...}}; accept both.
    const body = isObject(raw) && isObject(raw.data) && !('call_id' in raw) ? raw.data : raw;
    const parsed = parseBlandCall(body);
    if (!parsed.success) {
      throw new VoiceProviderError('The voice provider sent a call we could not read', status);
    }
    return { call: parsed.call, raw: body };
  }

  return {
    name: 'Bland AI',
    parseWebhook: parseBlandWebhook,
    async listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult> {
      const limit = q.limit === undefined ? undefined : Math.min(1000, Math.max(1, Math.floor(q.limit)));
      const result = await send(apiKey, '/v1/calls', {
        query: {
          from: q.from === undefined ? undefined : String(Math.max(0, Math.floor(q.from))),
          limit: limit === undefined ? undefined : String(limit),
          ascending: q.ascending === undefined ? undefined : String(q.ascending),
          sort_by: q.sortBy,
          start_date: q.startDate?.toISOString(),
          end_date: q.endDate?.toISOString(),
        },
      });
      if (!result.response.ok) {
        await discard(result);
        throw unexpected(result.response.status);
      }
      const parsed = blandListResponseSchema.safeParse(await readJson(result));
      if (!parsed.success) {
        throw new VoiceProviderError(
          'The voice provider sent a call list we could not read',
          result.response.status,
        );
      }
      const calls: NormalizedCall[] = [];
      const raw: unknown[] = [];
      for (const item of parsed.data.calls) {
        const call = parseBlandCall(item);
        // One unreadable item must not stop a sync; it is skipped and `received` still counts it.
        if (!call.success) continue;
        calls.push(call.call);
        raw.push(item);
      }
      const received = parsed.data.calls.length;
      return {
        // `count` is this page's size, not the total: it must never stand in for total_count.
        totalCount: parsed.data.total_count ?? null,
        calls,
        raw,
        received,
      };
    },

    getCall,

    async streamRecording(apiKey: string, callId: string, range?: string): Promise<RecordingStream> {
      if (!validCallId(callId)) throw new ProviderNotFoundError('The voice provider has no such recording');
      const headers: Record<string, string> = { 'content-type': 'audio/mpeg', accept: 'audio/mpeg' };
      if (range && range.length <= 200) headers.range = range;
      const result = await send(apiKey, `/v1/recordings/${encodeURIComponent(callId)}`, {
        headers,
        stream: true,
      });
      const { response } = result;
      const status = response.status;
      if (status === 404 || status === 410) {
        await discard(result);
        if (status === 410) throw new RecordingExpiredError(status);
        // A missing recording of a call that exists means it expired (or was never made).
        const { call } = await getCall(apiKey, callId);
        if (!call.recordingUrl) throw new ProviderNotFoundError('This call has no recording', status);
        throw new RecordingExpiredError(status);
      }
      if (status !== 200 && status !== 206 && status !== 416) {
        await discard(result);
        throw unexpected(status);
      }
      const out: Record<string, string> = {};
      for (const name of RECORDING_HEADERS) {
        const value = response.headers.get(name);
        if (value) out[name] = value;
      }
      const body = response.body
        ? Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>)
        : Readable.from([]);
      return { status, headers: out, body };
    },

    async placeTestCall(apiKey: string, request: TestCallRequest): Promise<{ callId: string }> {
      const result = await send(apiKey, '/v1/calls', {
        json: {
          phone_number: request.phoneNumber,
          task: 'This is a test call from your call analytics platform. Say hello, say that this is a test, and end the call.',
          max_duration: 2,
          webhook: request.webhookUrl,
        },
      });
      const status = result.response.status;
      const raw = await readJson(result).catch(() => null);
      const body = isObject(raw) ? raw : {};
      if (!result.response.ok || body.status !== 'success' || typeof body.call_id !== 'string') {
        // Bland's error envelope carries a message meant for people (an invalid number, no credit).
        const reason = isObject(body.errors) || Array.isArray(body.errors) ? null : (body.message ?? null);
        throw new VoiceProviderError(
          typeof reason === 'string' && reason.length < 300
            ? `The voice provider refused the test call: ${reason}`
            : `The voice provider refused the test call (HTTP ${status})`,
          status,
        );
      }
      return { callId: body.call_id };
    },

    async checkKey(apiKey: string): Promise<'valid' | 'invalid'> {
      if (!apiKey.trim()) return 'invalid';
      try {
        const result = await send(apiKey, '/v1/calls', { query: { limit: '1' } });
        await discard(result);
        if (result.response.ok) return 'valid';
        throw unexpected(result.response.status);
      } catch (error) {
        if (error instanceof ProviderAuthError) return 'invalid';
        throw error;
      }
    },

    async getPathwayName(apiKey: string, pathwayId: string): Promise<string | null> {
      if (!isBlandId(pathwayId)) return null;
      const cacheKey = `${keyId(apiKey)}:${pathwayId}`;
      const cached = pathwayCache.get(cacheKey);
      if (cached && cached.expires > Date.now()) return cached.name;
      const result = await send(apiKey, `/v1/pathway/${encodeURIComponent(pathwayId)}`);
      const status = result.response.status;
      if (status === 404 || status === 400) {
        await discard(result);
        return null;
      }
      if (!result.response.ok) {
        await discard(result);
        throw unexpected(status);
      }
      const raw = await readJson(result);
      const body = isObject(raw) && isObject(raw.data) && !('name' in raw) ? raw.data : raw;
      const parsed = blandPathwaySchema.safeParse(body);
      const name = parsed.success ? (parsed.data.name ?? null) : null;
      if (name) {
        if (pathwayCache.size >= PATHWAY_CACHE_MAX) {
          const oldest = pathwayCache.keys().next().value;
          if (oldest !== undefined) pathwayCache.delete(oldest);
        }
        pathwayCache.set(cacheKey, { name, expires: Date.now() + pathwayCacheMs });
      }
      return name;
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
