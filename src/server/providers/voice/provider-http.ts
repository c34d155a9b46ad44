/**
 * The HTTP client every voice provider adapter shares: the only code that sends a client's API key
 * anywhere, and only to the adapter's configured base URL. Bounded concurrency per key, retries
 * with backoff on 429/5xx/network failures (never for a POST: it could place a second call),
 * timeouts, and the typed errors of errors.ts. It never buffers a recording.
 *
 * Requests go through undici's `request` on one kept-alive Agent, not the global fetch: a sync
 * makes ~20,000 of them, and fetch's Request/Response objects and WHATWG streams were the largest
 * single cost of its CPU time. Redirects are followed as fetch follows them (the key is
 * dropped when one leads to another origin); no Accept-Encoding is sent, so answers come plain.
 * A recording URL the provider hands out is the exception: it may name any address, so it is
 * fetched through the media address checks (MediaAccess) with each redirect checked, and only
 * audio is passed on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import { Agent, type Dispatcher, interceptors } from 'undici';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  RecordingExpiredError,
  VoiceProviderError,
} from './errors';
import type { RecordingStream } from './types';

export interface ProviderHttpOptions {
  baseUrl: string;
  /** Per attempt; for recordings only until the headers arrive. Default 15 s. */
  timeoutMs?: number;
  /** Requests in flight per API key (stay polite to the provider). Default 3. */
  maxConcurrentPerKey?: number;
  /** Retries after the first attempt on 429, 5xx and network errors. Default 3. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, with jitter. Default 300 ms. */
  retryBaseMs?: number;
  /** Longest single wait, Retry-After included; a longer Retry-After means give up. Default 10 s. */
  maxRetryDelayMs?: number;
  /**
   * Where a recording URL the provider hands out may lead besides `baseUrl`'s origin. Without
   * it, nowhere else (fails closed); bootstrap.ts passes the client webhooks' address checks.
   */
  media?: MediaAccess;
}

/**
 * The address checks for recording URLs (notifications/safe-http.ts's `createAddressGuard`,
 * handed in by the composition root, as providers import no feature): public addresses only,
 * resolved once per connection so a name cannot answer one address to the check and another to
 * the socket, except the origins trusted as they are.
 */
export interface MediaAccess {
  lookup: LookupFunction;
  /** Whether a literal address is refused (a literal never reaches `lookup`). */
  refused(address: string): boolean;
  /** Origins fetched without the checks: the configured platform API URLs (the stand-ins). */
  trustedOrigins: readonly string[];
}

/** Redirects a recording URL may take, each hop checked like the first. */
const MAX_MEDIA_HOPS = 5;

export const MEDIA_REFUSED_MESSAGE =
  'The voice provider’s recording address leads into a private network: it was not fetched';
export const MEDIA_NOT_AUDIO_MESSAGE =
  'The voice provider answered the recording with something that is not audio';

const RECORDING_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];

/** fetch's limit. */
const MAX_REDIRECTIONS = 20;

/**
 * One dispatcher for every provider: a pool of kept-alive connections per origin. The per-key
 * limits below bound how many requests are in flight, so the pools need no bound of their own.
 */
const dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 10_000 }).compose(
  interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
);
/** Recording URLs at a trusted origin: no redirect followed by the library (streamUrl checks each). */
const mediaTrustedDispatcher: Dispatcher = new Agent({ keepAliveTimeout: 10_000 });

/** What the adapters read of a provider's answer; the body is the library's Readable. */
export interface ProviderResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  body: Dispatcher.ResponseData['body'];
}

function providerResponse(data: Dispatcher.ResponseData): ProviderResponse {
  const { statusCode: status, headers, body } = data;
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      get(name) {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body,
  };
}

/** Throws the rest of an answer away; a short one is read to its end so the connection is reused. */
const dropBody = (response: ProviderResponse) => response.body.dump().catch(() => {});

type Release = () => void;

/**
 * A p-limit per key, so one client's sync cannot flood the provider with its key. A slot is held
 * from `acquire` until its release (after the answer's body is read, which may be after `request`
 * returns), so each holder runs a task that ends when it releases. A key's limit is dropped once
 * nobody holds or waits for it.
 */
function createKeyedLimit(concurrency: number) {
  const limits = new Map<string, { limit: LimitFunction; users: number }>();
  return function acquire(key: string): Promise<Release> {
    let entry = limits.get(key);
    if (!entry) {
      entry = { limit: pLimit(concurrency), users: 0 };
      limits.set(key, entry);
    }
    const e = entry;
    e.users++;
    return new Promise<Release>((granted) => {
      void e.limit(
        () =>
          new Promise<void>((release) => {
            let released = false;
            granted(() => {
              if (released) return;
              released = true;
              if (--e.users === 0) limits.delete(key);
              release();
            });
          }),
      );
    });
  };
}

/** An HTTP status, or 'network' when no answer came. */
export type RetryCause = number | 'network';
const retryListener = new AsyncLocalStorage<(cause: RetryCause) => void>();

/**
 * Runs `work` with every provider error it retries reported to `onRetry` (a sync counts them per
 * status). Through the async context, so the adapters need not pass anything along.
 */
export function withRetryListener<T>(
  onRetry: (cause: RetryCause) => void,
  work: () => Promise<T>,
): Promise<T> {
  return retryListener.run(onRetry, work);
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

export const keyId = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex').slice(0, 32);

export interface SendOptions {
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** Recordings: stop the timeout once headers arrive and let the body stream freely. */
  stream?: boolean;
  /** A JSON body, sent with POST. A POST is not retried (it could place a second call)… */
  json?: unknown;
  /** …unless it only reads (Retell's list-calls is a POST). */
  readOnly?: boolean;
  /** Another connection pool (a recording URL's, with its address checks, no redirects). */
  dispatcher?: Dispatcher;
  /**
   * A removal (with or without a JSON body). Retried like a GET: a DELETE sent twice ends the
   * same way, the second answering that the thing is gone.
   */
  method?: 'DELETE';
}

export interface SendResult {
  response: ProviderResponse;
  /**
   * Ends the request: clears its timeout and frees the key's slot. Call once the body has been
   * read; streams are already done when send returns (the body then flows without either).
   */
  done: () => void;
  timedOut: () => boolean;
}

export interface ProviderHttp {
  /** One logical request to a path under the base URL (see createProviderHttp). */
  send(apiKey: string, path: string, opts?: SendOptions): Promise<SendResult>;
  readJson(result: SendResult): Promise<unknown>;
  discard(result: SendResult): Promise<void>;
  unexpected(status: number): VoiceProviderError;
  /**
   * GET a JSON answer: null when the provider answers one of `missing` (an unknown id), the typed
   * errors for the rest.
   */
  getJson(
    apiKey: string,
    path: string,
    missing: readonly number[],
    query?: Record<string, string | undefined>,
  ): Promise<{ json: unknown; status: number } | null>;
  /**
   * DELETE what `path` names: 'deleted' on a 2xx (its body unread), 'not_found' when the provider
   * answers one of `missing`, the typed errors for the rest. `json`: a body the provider requires.
   */
  deleteAt(
    apiKey: string,
    path: string,
    missing: readonly number[],
    json?: unknown,
  ): Promise<'deleted' | 'not_found'>;
  /** Streams audio from a URL the provider gave for a call's recording (no key is sent there). */
  streamUrl(url: string, range?: string): Promise<RecordingStream>;
}

/**
 * @param authorize the headers that carry the key: Bland takes it bare in `authorization`, Vapi
 * and Retell as a Bearer token.
 */
export function createProviderHttp(
  options: ProviderHttpOptions,
  authorize: (apiKey: string) => Record<string, string>,
): ProviderHttp {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 300;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const acquire = createKeyedLimit(Math.max(1, options.maxConcurrentPerKey ?? 3));
  const media = options.media;
  const trustedOrigins = new Set([originOf(baseUrl), ...(media?.trustedOrigins ?? []).map(originOf)]);
  const mediaDispatcher = media
    ? new Agent({ keepAliveTimeout: 10_000, connect: { lookup: media.lookup } })
    : null;

  /** The pool a recording URL is fetched through, or the refusal of its address. */
  function mediaRoute(target: URL): Dispatcher {
    if (trustedOrigins.has(target.origin)) return mediaTrustedDispatcher;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!media || !mediaDispatcher || (isIP(host) && media.refused(host)))
      throw new VoiceProviderError(MEDIA_REFUSED_MESSAGE);
    return mediaDispatcher;
  }

  function buildUrl(path: string, query?: Record<string, string | undefined>): URL {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  function backoff(attempt: number, retryAfter: number | null): number | null {
    const exp = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** attempt);
    const jittered = exp / 2 + Math.random() * (exp / 2);
    if (retryAfter !== null && retryAfter > maxRetryDelayMs) return null;
    return Math.max(jittered, retryAfter ?? 0);
  }

  const retriesFor = (opts: SendOptions) =>
    opts.method === 'DELETE' || opts.json === undefined || opts.readOnly ? maxRetries : 0;

  /**
   * Waits for a slot for this key, then tries up to 1 + maxRetries times. Returns any
   * non-retryable answer (the caller interprets 404 etc.); throws on 401/403 and when retries are
   * exhausted. The slot is held through backoff so retries stay within the bound.
   */
  async function request(
    slotKey: string,
    url: URL,
    headers: Record<string, string>,
    opts: SendOptions,
  ): Promise<SendResult> {
    const release = await acquire(slotKey);
    let lastStatus: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const controller = new AbortController();
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
        let response: ProviderResponse;
        try {
          response = providerResponse(
            await (opts.dispatcher ?? dispatcher).request({
              origin: url.origin,
              path: `${url.pathname}${url.search}`,
              method: opts.method ?? (opts.json === undefined ? 'GET' : 'POST'),
              headers: {
                ...headers,
                ...(opts.json === undefined ? {} : { 'content-type': 'application/json' }),
                ...opts.headers,
              },
              body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
              signal: controller.signal,
            }),
          );
        } catch (error) {
          clearTimeout(timer);
          // An address refused by the media checks is final: no retry reaches another answer.
          if (isRefusedTarget(error)) throw new VoiceProviderError(MEDIA_REFUSED_MESSAGE);
          // A provider that does not answer within the timeout is not retried: the wait is already long.
          if (timedOut) throw new ProviderUnavailableError(undefined);
          const delay = attempt < retriesFor(opts) ? backoff(attempt, null) : null;
          if (delay === null) throw new ProviderUnavailableError(lastStatus);
          retryListener.getStore()?.('network');
          await sleep(delay);
          continue;
        }
        const status = response.status;
        if (status === 401 || status === 403 || status === 429 || status >= 500) {
          clearTimeout(timer);
          await dropBody(response);
          if (status === 401 || status === 403) throw new ProviderAuthError(status);
          lastStatus = status;
          const wait = retryAfterMs(response.headers.get('retry-after'));
          const delay = attempt < retriesFor(opts) ? backoff(attempt, wait) : null;
          if (delay === null) throw new ProviderUnavailableError(status);
          retryListener.getStore()?.(status);
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
      return await result.response.body.json();
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
    await dropBody(result.response);
  }

  function unexpected(status: number): VoiceProviderError {
    return new VoiceProviderError(
      `The voice provider answered with an unexpected error (HTTP ${status})`,
      status,
    );
  }

  const send = (apiKey: string, path: string, opts: SendOptions = {}) =>
    request(
      keyId(apiKey),
      buildUrl(path, opts.query),
      { ...authorize(apiKey), accept: 'application/json' },
      opts,
    );

  return {
    send,
    readJson,
    discard,
    unexpected,
    async getJson(apiKey, path, missing, query) {
      const result = await send(apiKey, path, { query });
      const { status } = result.response;
      if (missing.includes(status)) {
        await discard(result);
        return null;
      }
      if (!result.response.ok) {
        await discard(result);
        throw unexpected(status);
      }
      return { json: await readJson(result), status };
    },
    async deleteAt(apiKey, path, missing, json) {
      const result = await send(apiKey, path, { method: 'DELETE', json });
      const { status } = result.response;
      await discard(result);
      if (missing.includes(status)) return 'not_found';
      if (!result.response.ok) throw unexpected(status);
      return 'deleted';
    },
    async streamUrl(url, range) {
      let target = recordingUrlOf(url);
      const headers: Record<string, string> = { accept: 'audio/*' };
      if (range && range.length <= 200) headers.range = range;
      // Redirects are followed here, not by the library, so that every hop's address is checked.
      for (let hop = 0; ; hop++) {
        const result = await request(`recording:${target.host}`, target, headers, {
          stream: true,
          dispatcher: mediaRoute(target),
        });
        const { status } = result.response;
        if (status < 300 || status >= 400 || status === 304)
          return recordingStream(result, discard, unexpected);
        const location = result.response.headers.get('location');
        await discard(result);
        if (!location || hop >= MAX_MEDIA_HOPS) throw unexpected(status);
        target = recordingUrlOf(location, target);
      }
    },
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** A recording URL (or a redirect's Location, against the URL it came from), http(s) only. */
function recordingUrlOf(url: string, base?: URL): URL {
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    throw new ProviderNotFoundError('This call has no recording');
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new ProviderNotFoundError('This call has no recording');
  return target;
}

/** The media checks' refusal (safe-http's RefusedTargetError), as undici hands it on. */
function isRefusedTarget(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++)
    if (e.name === 'RefusedTargetError') return true;
  return false;
}

/** A provider's audio answer as a RecordingStream: 404/410 mean the audio is gone. */
export async function recordingStream(
  result: SendResult,
  discard: (result: SendResult) => Promise<void>,
  unexpected: (status: number) => VoiceProviderError,
): Promise<RecordingStream> {
  const { response } = result;
  const status = response.status;
  if (status === 404 || status === 410) {
    await discard(result);
    throw new RecordingExpiredError(status);
  }
  if (status !== 200 && status !== 206 && status !== 416) {
    await discard(result);
    throw unexpected(status);
  }
  // Served from our own origin: anything but audio (a web page at the recording's address) is
  // refused, never passed on. A 416 carries no audio; its body is not passed on either.
  const type = result.response.headers.get('content-type') ?? '';
  if (status !== 416 && !/^audio\/[\w.+-]+\s*(;.*)?$/i.test(type)) {
    await discard(result);
    throw new VoiceProviderError(MEDIA_NOT_AUDIO_MESSAGE, status);
  }
  if (status === 416) {
    const range = result.response.headers.get('content-range');
    await discard(result);
    return { status, headers: range ? { 'content-range': range } : {}, body: Readable.from([]) };
  }
  const out: Record<string, string> = {};
  for (const name of RECORDING_HEADERS) {
    const value = response.headers.get(name);
    if (value) out[name] = value;
  }
  const body: Readable = response.body;
  return { status, headers: out, body };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Names of a provider's pathways, assistants or agents, per key and id, kept a while: a sync
 * names the same few for hundreds of calls. Only names found are kept.
 */
export function createNameCache(ttlMs = 10 * 60_000, max = 1_000) {
  const names = new Map<string, { name: string; expires: number }>();
  return async function cachedName(
    apiKey: string,
    id: string,
    load: () => Promise<string | null>,
  ): Promise<string | null> {
    const key = `${keyId(apiKey)}:${id}`;
    const cached = names.get(key);
    if (cached && cached.expires > Date.now()) return cached.name;
    const name = await load();
    if (name) {
      if (names.size >= max) {
        const oldest = names.keys().next().value;
        if (oldest !== undefined) names.delete(oldest);
      }
      names.set(key, { name, expires: Date.now() + ttlMs });
    }
    return name;
  };
}

/**
 * A key check: 'valid' when the provider answers `probe` (a cheap read made with the key),
 * 'invalid' when it refuses the key; anything else (the provider down) is thrown, since the
 * provider could not tell.
 */
export async function checkKeyWith(
  apiKey: string,
  probe: () => Promise<unknown>,
): Promise<'valid' | 'invalid'> {
  if (!apiKey.trim()) return 'invalid';
  try {
    await probe();
    return 'valid';
  } catch (error) {
    if (error instanceof ProviderAuthError) return 'invalid';
    throw error;
  }
}

/** A recording the provider hands out as a URL on the call (Vapi, Retell): looked up, then streamed. */
export async function streamRecordingOfCall(
  http: ProviderHttp,
  getCall: (apiKey: string, callId: string) => Promise<{ call: { recordingUrl: string | null } }>,
  apiKey: string,
  callId: string,
  range?: string,
): Promise<RecordingStream> {
  const { call } = await getCall(apiKey, callId);
  if (!call.recordingUrl) throw new ProviderNotFoundError('This call has no recording');
  return http.streamUrl(call.recordingUrl, range);
}
