/**
 * The Bland AI adapter: Bland's paths, wire format and answers, over the shared provider HTTP
 * client (provider-http.ts: bounded concurrency per key, retries, timeouts, typed errors). It
 * never buffers a recording; it hands back the provider's stream.
 */
import { blandListResponseSchema, blandPathwaySchema, isBlandId, parseBlandCall } from './bland-payload';
import { VOICE_PROVIDER_NAMES } from '../../../contract/providers';
import { parseBlandWebhook } from './bland-webhook';
import { ProviderNotFoundError, RecordingExpiredError, VoiceProviderError } from './errors';
import {
  type ProviderHttpOptions,
  checkKeyWith,
  createNameCache,
  createProviderHttp,
  isObject,
  recordingStream,
} from './provider-http';
import type {
  ListCallsQuery,
  ListCallsResult,
  NormalizedCall,
  RecordingStream,
  TestCallRequest,
  VoiceProvider,
} from './types';

export interface BlandProviderOptions extends ProviderHttpOptions {
  /** Pathway names are cached this long per key. Default 10 min. */
  pathwayCacheMs?: number;
}

export function createBlandProvider(options: BlandProviderOptions): VoiceProvider {
  const cachedName = createNameCache(options.pathwayCacheMs);
  // Bland takes the key bare in `authorization`, not as a Bearer token.
  const { send, readJson, discard, unexpected, getJson } = createProviderHttp(options, (apiKey) => ({
    authorization: apiKey,
  }));

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
    id: 'bland',
    name: VOICE_PROVIDER_NAMES.bland,
    signatureKey: 'webhookSecret',
    parseWebhook: parseBlandWebhook,
    async listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult> {
      // Bland pages by offset, oldest first: the cursor is the offset of the next page.
      const limit = Math.min(1000, Math.max(1, Math.floor(q.limit ?? 1000)));
      const offset = q.cursor && /^\d{1,9}$/.test(q.cursor) ? Number(q.cursor) : 0;
      const result = await send(apiKey, '/v1/calls', {
        query: {
          from: String(offset),
          limit: String(limit),
          ascending: 'true',
          sort_by: 'created_at',
          start_date: q.startDate?.toISOString(),
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
        // One unreadable item must not stop a sync; it is skipped and the offset still counts it.
        if (!call.success) continue;
        calls.push(call.call);
        raw.push(item);
      }
      const next = offset + parsed.data.calls.length;
      // `count` is this page's size, not the total: only total_count says how many there are.
      // Without it (Bland's documented answer has none), a short page is the last one.
      const total = parsed.data.total_count ?? null;
      const last = total === null ? parsed.data.calls.length < limit : next >= total;
      return { calls, raw, nextCursor: last || parsed.data.calls.length === 0 ? null : String(next) };
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
      const status = result.response.status;
      if (status === 404) {
        await discard(result);
        // A missing recording of a call that exists means it expired (or was never made).
        const { call } = await getCall(apiKey, callId);
        if (!call.recordingUrl) throw new ProviderNotFoundError('This call has no recording', status);
        throw new RecordingExpiredError(status);
      }
      return recordingStream(result, discard, unexpected);
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

    checkKey: (apiKey: string) =>
      checkKeyWith(apiKey, () => getJson(apiKey, '/v1/calls', [], { limit: '1' })),

    async getPathwayName(apiKey: string, pathwayId: string): Promise<string | null> {
      if (!isBlandId(pathwayId)) return null;
      return cachedName(apiKey, pathwayId, async () => {
        const found = await getJson(apiKey, `/v1/pathway/${encodeURIComponent(pathwayId)}`, [404, 400]);
        if (!found) return null;
        const raw = found.json;
        const body = isObject(raw) && isObject(raw.data) && !('name' in raw) ? raw.data : raw;
        const parsed = blandPathwaySchema.safeParse(body);
        return parsed.success ? (parsed.data.name ?? null) : null;
      });
    },
  };
}
