/**
 * The Vapi adapter (issue 18): Vapi's REST API with the client's private key as a Bearer token,
 * over the shared HTTP client (provider-http.ts). Calls are listed newest first by GET /call and
 * paged by creation time; recordings are streamed from the artifact's URL.
 */
import { VOICE_PROVIDER_NAMES } from '../../../contract/providers';
import { ProviderNotFoundError, VoiceProviderError } from './errors';
import { isProviderId } from './payload-fields';
import {
  type ProviderHttpOptions,
  checkKeyWith,
  createNameCache,
  createProviderHttp,
  streamRecordingOfCall,
} from './provider-http';
import type { ListCallsQuery, ListCallsResult, NormalizedCall, VoiceProvider } from './types';
import { parseVapiCall, vapiAssistantSchema, vapiCallSchema, vapiListSchema } from './vapi-payload';
import { parseVapiWebhook } from './vapi-webhook';

/** Vapi's GET /call answers at most this many calls a page. */
const MAX_PAGE = 1000;

/**
 * Where the next page starts: calls created at or before `before`, less the ones already seen at
 * exactly that instant (two calls can share a millisecond; `createdAtLt` would skip one of them).
 */
interface VapiCursor {
  before: string;
  seen: string[];
}

function readCursor(cursor: string | undefined): VapiCursor | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(cursor) as Partial<VapiCursor>;
    if (
      typeof value.before === 'string' &&
      Number.isFinite(Date.parse(value.before)) &&
      Array.isArray(value.seen)
    )
      return { before: value.before, seen: value.seen.filter((id): id is string => typeof id === 'string') };
  } catch {
    // An unreadable cursor starts from the top.
  }
  return null;
}

export function createVapiProvider(options: ProviderHttpOptions): VoiceProvider {
  const http = createProviderHttp(options, (apiKey) => ({ authorization: `Bearer ${apiKey}` }));
  const { send, readJson, discard, unexpected, getJson } = http;
  const cachedName = createNameCache();

  async function getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }> {
    if (!isProviderId(callId)) throw new ProviderNotFoundError();
    // An id that is not one of Vapi's UUIDs is answered 400.
    const found = await getJson(apiKey, `/call/${encodeURIComponent(callId)}`, [404, 400]);
    if (!found) throw new ProviderNotFoundError();
    const parsed = parseVapiCall(found.json);
    if (!parsed.success)
      throw new VoiceProviderError('The voice provider sent a call we could not read', found.status);
    return { call: parsed.call, raw: found.json };
  }

  return {
    id: 'vapi',
    name: VOICE_PROVIDER_NAMES.vapi,
    signatureKey: 'webhookSecret',
    parseWebhook: parseVapiWebhook,

    async listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult> {
      const cursor = readCursor(q.cursor);
      // The calls already seen at the cursor's instant come back first: ask for that many more,
      // so they cannot fill the page (past 1,000 of them at one instant, the rest are skipped).
      const wanted = Math.max(1, Math.floor(q.limit ?? MAX_PAGE));
      const limit = Math.min(MAX_PAGE, wanted + (cursor?.seen.length ?? 0));
      const result = await send(apiKey, '/call', {
        query: {
          limit: String(limit),
          createdAtGe: q.startDate?.toISOString(),
          createdAtLe: cursor?.before,
        },
      });
      if (!result.response.ok) {
        await discard(result);
        throw unexpected(result.response.status);
      }
      const list = vapiListSchema.safeParse(await readJson(result));
      if (!list.success)
        throw new VoiceProviderError(
          'The voice provider sent a call list we could not read',
          result.response.status,
        );
      const seen = new Set(cursor?.seen ?? []);
      const calls: NormalizedCall[] = [];
      const raw: unknown[] = [];
      let oldest: string | null = null;
      let atOldest: string[] = [];
      let fresh = 0;
      for (const item of list.data) {
        const head = vapiCallSchema.pick({ id: true, createdAt: true }).safeParse(item);
        if (head.success && head.data.createdAt) {
          const at = head.data.createdAt;
          if (oldest === null || Date.parse(at) < Date.parse(oldest)) {
            oldest = at;
            atOldest = [head.data.id];
          } else if (Date.parse(at) === Date.parse(oldest)) atOldest.push(head.data.id);
        }
        if (head.success && seen.has(head.data.id)) continue;
        fresh++;
        const parsed = parseVapiCall(item);
        // One unreadable item must not stop a sync; it is skipped, the paging goes on past it.
        if (!parsed.success) continue;
        calls.push(parsed.call);
        raw.push(item);
      }
      // The last page is a short one, or one that brought nothing new.
      const last = list.data.length < limit || fresh === 0 || oldest === null;
      const carried =
        cursor && oldest !== null && Date.parse(cursor.before) === Date.parse(oldest) ? cursor.seen : [];
      return {
        calls,
        raw,
        nextCursor: last
          ? null
          : JSON.stringify({ before: oldest, seen: [...new Set([...carried, ...atOldest])] }),
      };
    },

    getCall,

    streamRecording: (apiKey, callId, range) => streamRecordingOfCall(http, getCall, apiKey, callId, range),

    checkKey: (apiKey: string) => checkKeyWith(apiKey, () => getJson(apiKey, '/call', [], { limit: '1' })),

    /** A call's "pathway" on Vapi is its assistant: named by GET /assistant/{id}. */
    async getPathwayName(apiKey, assistantId) {
      if (!isProviderId(assistantId)) return null;
      return cachedName(apiKey, assistantId, async () => {
        const found = await getJson(apiKey, `/assistant/${encodeURIComponent(assistantId)}`, [404, 400]);
        const parsed = found ? vapiAssistantSchema.safeParse(found.json) : null;
        return parsed?.success ? (parsed.data.name ?? null) : null;
      });
    },
  };
}
