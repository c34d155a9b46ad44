/**
 * The Bland AI adapter: Bland's paths, wire format and answers, over the shared provider HTTP
 * client (provider-http.ts: bounded concurrency per key, retries, timeouts, typed errors). It
 * never buffers a recording; it hands back the provider's stream. A call's details come with its
 * corrected transcript when Bland has one (GET /v1/calls/{call_id}/correct): segments
 * timed from the recording, which the post-call transcript's lines are not.
 */

import { VOICE_PLATFORMS } from '../../../contract/providers';
import {
  type BlandCallPayload,
  blandCorrectedAnswerSchema,
  blandListResponseSchema,
  blandPathwaySchema,
  isBlandId,
  parseBlandCall,
  readBlandStoredPayload,
  withCorrectedTranscript,
} from './bland-payload';
import { parseBlandWebhook } from './bland-webhook';
import { ProviderNotFoundError, RecordingExpiredError, VoiceProviderError } from './errors';
import {
  checkKeyWith,
  createNameCache,
  createProviderHttp,
  isObject,
  type ProviderHttpOptions,
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

  /** GET /v1/calls/{id}: the call as Bland details it, without the corrected transcript. */
  async function readDetails(apiKey: string, callId: string) {
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
    return { parsed, raw: body };
  }

  async function getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }> {
    const { parsed, raw } = await readDetails(apiKey, callId);
    const segments = await correctedSegments(apiKey, callId, parsed.call, parsed.payload);
    // The raw call stays as Bland sent it: what is stored of it is bounded (stored-payload.ts).
    return { call: withCorrectedTranscript(parsed.call, parsed.payload, segments), raw };
  }

  /**
   * The corrected transcript's segments (unread: withCorrectedTranscript decides), or null. Asked
   * only of an ended call that has something said to correct, through the same per-key limit and
   * retries as every request. Best effort: no corrected transcript (Bland answers 404), any
   * other answer, an unreadable body, a refused key or a provider that stays down all leave the
   * post-call transcript as it is, and never fail the details.
   */
  async function correctedSegments(
    apiKey: string,
    callId: string,
    call: NormalizedCall,
    payload: BlandCallPayload,
  ): Promise<unknown> {
    if (call.status === 'active' || !call.transcript?.length || payload.corrected_transcript != null)
      return payload.corrected_transcript ?? null;
    try {
      const found = await getJson(apiKey, `/v1/calls/${encodeURIComponent(callId)}/correct`, [404, 400]);
      const answer = found ? blandCorrectedAnswerSchema.safeParse(found.json) : null;
      return answer?.success ? (answer.data.corrected ?? null) : null;
    } catch {
      return null;
    }
  }

  return {
    id: 'bland',
    name: VOICE_PLATFORMS.bland.name,
    signatureKey: 'webhookSecret',
    parseWebhook: parseBlandWebhook,
    readStoredPayload: readBlandStoredPayload,
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
        const { call } = (await readDetails(apiKey, callId)).parsed;
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
