/**
 * The Vapi adapter: Vapi's REST API with the client's private key as a Bearer token,
 * over the shared HTTP client (provider-http.ts). Calls are listed newest first by GET /call and
 * paged by creation time until a page brings nothing; a call on a saved number names
 * it by phoneNumberId, read once by GET /phone-number/{id}; recordings are streamed
 * from the artifact's URL; a call is deleted by DELETE /call/{id}.
 */
import { VOICE_PLATFORMS } from '../../../contract/providers';
import { ProviderAuthError, ProviderNotFoundError, VoiceProviderError } from './errors';
import { isProviderId } from './payload-fields';
import {
  checkKeyWith,
  createNameCache,
  createProviderHttp,
  type ProviderHttpOptions,
  streamRecordingOfCall,
} from './provider-http';
import type { ListCallsQuery, ListCallsResult, NormalizedCall, VoiceProvider } from './types';
import {
  parseVapiCall,
  readVapiStoredPayload,
  vapiAssistantSchema,
  vapiCallSchema,
  vapiListSchema,
  vapiPhoneNumberSchema,
} from './vapi-payload';
import { parseVapiWebhook } from './vapi-webhook';

/**
 * What a page asks for: Vapi documents `limit` as "defaults to 100" and states no maximum, so we
 * never ask for more; and it may answer fewer than asked, so a short page is not the last.
 */
const MAX_PAGE = 100;

/** Vapi's ids of calls: its OpenAPI document gives GET and PATCH /call/{id}'s `id` as `format: uuid`. */
const VAPI_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where the next page starts: calls created at or before `before`, less the ones already seen at
 * exactly that instant (two calls can share a millisecond; `createdAtLt` would skip one of them).
 * `strict`: strictly before it (a page held nothing but calls already seen at that instant).
 */
interface VapiCursor {
  before: string;
  seen: string[];
  strict?: boolean;
}

function readCursor(cursor: string | undefined): VapiCursor | null {
  if (!cursor) return null;
  try {
    // Our own cursor, but it came back through a client: each field is checked below.
    const value = JSON.parse(cursor) as Partial<VapiCursor>;
    if (
      typeof value.before === 'string' &&
      Number.isFinite(Date.parse(value.before)) &&
      Array.isArray(value.seen)
    )
      return {
        before: value.before,
        seen: value.seen.filter((id): id is string => typeof id === 'string'),
        strict: value.strict === true,
      };
  } catch {
    // An unreadable cursor starts from the top.
  }
  return null;
}

export function createVapiProvider(options: ProviderHttpOptions): VoiceProvider {
  const http = createProviderHttp(options, (apiKey) => ({ authorization: `Bearer ${apiKey}` }));
  const { send, readJson, discard, unexpected, getJson, deleteAt } = http;
  const cachedName = createNameCache();
  const cachedNumber = createNameCache();

  /** The digits of a saved number; null when Vapi does not know it or cannot answer now. */
  async function phoneNumberOf(apiKey: string, id: string): Promise<string | null> {
    if (!isProviderId(id)) return null;
    try {
      return await cachedNumber(apiKey, id, async () => {
        const found = await getJson(apiKey, `/phone-number/${encodeURIComponent(id)}`, [404, 400]);
        const parsed = found ? vapiPhoneNumberSchema.safeParse(found.json) : null;
        return parsed?.success ? (parsed.data.number?.trim() ?? null) : null;
      });
    } catch (error) {
      // A refused key stops the sync; any other failure leaves the number empty until next time.
      if (error instanceof ProviderAuthError) throw error;
      return null;
    }
  }

  /**
   * Vapi's call with our number filled in from its phoneNumberId when the call does not carry it
   * whole (a saved number, not a transient one); the stored raw call stays as Vapi sent it.
   */
  async function withOurNumber(apiKey: string, items: unknown[]): Promise<unknown[]> {
    const missing = (item: unknown): string | null => {
      const head = vapiCallSchema.pick({ phoneNumberId: true, phoneNumber: true }).safeParse(item);
      if (!head.success || head.data.phoneNumber?.number?.trim()) return null;
      return head.data.phoneNumberId?.trim() || null;
    };
    const ids = [...new Set(items.map(missing).filter((id): id is string => id !== null))];
    if (ids.length === 0) return items;
    const numbers = new Map<string, string | null>();
    for (const id of ids) numbers.set(id, await phoneNumberOf(apiKey, id));
    return items.map((item) => {
      const id = missing(item);
      const number = id ? numbers.get(id) : null;
      // A number was found only for an item that parsed as a call object (missing() above).
      return number ? { ...(item as Record<string, unknown>), phoneNumber: { number } } : item;
    });
  }

  async function getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }> {
    if (!isProviderId(callId)) throw new ProviderNotFoundError();
    // An id that is not one of Vapi's UUIDs is answered 400.
    const found = await getJson(apiKey, `/call/${encodeURIComponent(callId)}`, [404, 400]);
    if (!found) throw new ProviderNotFoundError();
    const [filled] = await withOurNumber(apiKey, [found.json]);
    const parsed = parseVapiCall(filled);
    if (!parsed.success)
      throw new VoiceProviderError('The voice provider sent a call we could not read', found.status);
    return { call: parsed.call, raw: found.json };
  }

  return {
    id: 'vapi',
    name: VOICE_PLATFORMS.vapi.name,
    signatureKey: 'webhookSecret',
    parseWebhook: parseVapiWebhook,
    readStoredPayload: readVapiStoredPayload,

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
          ...(cursor?.strict ? { createdAtLt: cursor.before } : { createdAtLe: cursor?.before }),
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
      const items = list.data;
      const filled = await withOurNumber(apiKey, items);
      const seen = new Set(cursor?.seen ?? []);
      const calls: NormalizedCall[] = [];
      const raw: unknown[] = [];
      let oldest: string | null = null;
      let atOldest: string[] = [];
      let fresh = 0;
      for (const [i, item] of items.entries()) {
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
        const parsed = parseVapiCall(filled[i]);
        // One unreadable item must not stop a sync; it is skipped, the paging goes on past it.
        if (!parsed.success) continue;
        calls.push(parsed.call);
        raw.push(item);
      }
      // Only an empty page is the last (Vapi may answer fewer than asked); a page of calls already
      // seen at the cursor's instant moves on to strictly before it (the rest at that instant, past
      // a page of them, are skipped).
      if (items.length === 0 || oldest === null) return { calls, raw, nextCursor: null };
      if (fresh === 0 && cursor)
        return { calls, raw, nextCursor: JSON.stringify({ before: cursor.before, seen: [], strict: true }) };
      const carried =
        cursor && !cursor.strict && Date.parse(cursor.before) === Date.parse(oldest) ? cursor.seen : [];
      return {
        calls,
        raw,
        nextCursor: JSON.stringify({ before: oldest, seen: [...new Set([...carried, ...atOldest])] }),
      };
    },

    getCall,

    /**
     * DELETE /call/{id}, checked against Vapi's OpenAPI document (CallController_deleteCallData,
     * as copied in tryAGI/Vapi's openapi.yaml, 2026-06-10) and its TypeScript SDK
     * (VapiAI/server-sdk-typescript, calls.delete, 2026-06-25): Bearer key, a required JSON body
     * (DeleteCallDTO, whose only field `ids` would turn it into an asynchronous bulk delete, so the
     * SDK's `{}` is sent), 200 with the deleted Call. The document lists no error status: an
     * unknown call is taken to answer 404 as GET /call/{id} does; a 400 (malformed request) or any
     * other unexpected answer is thrown, never read as gone. A 5xx is retried (provider-http.ts):
     * a DELETE that failed deleted nothing, one that succeeded unseen answers 404 the second time.
     */
    async deleteCall(apiKey, callId) {
      // Vapi names its calls by UUID: any other id cannot be one of its calls (GET answers it 400).
      if (!VAPI_ID.test(callId)) return 'not_found';
      return deleteAt(apiKey, `/call/${encodeURIComponent(callId)}`, [404], {});
    },

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
