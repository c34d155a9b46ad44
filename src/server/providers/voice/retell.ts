/**
 * The Retell adapter: Retell's REST API with the client's API key as a Bearer token,
 * over the shared HTTP client (provider-http.ts). Calls are listed by POST /v3/list-calls (the v2
 * list is retired), oldest first from the start date, paged by Retell's pagination_key; recordings
 * are streamed from the call's recording_url. A call that never connected has no start_timestamp,
 * so a listing since a date is read in two passes: the calls started since then, then the ones
 * that never connected and ended since then. A call is deleted by
 * DELETE /v2/delete-call/{call_id}.
 */
import { VOICE_PLATFORMS } from '../../../contract/providers';
import { ProviderNotFoundError, VoiceProviderError } from './errors';
import { isProviderId } from './payload-fields';
import {
  checkKeyWith,
  createNameCache,
  createProviderHttp,
  isObject,
  type ProviderHttpOptions,
  streamRecordingOfCall,
} from './provider-http';
import {
  parseRetellCall,
  readRetellStoredPayload,
  retellAgentSchema,
  retellListSchema,
} from './retell-payload';
import { parseRetellWebhook } from './retell-webhook';
import type { ListCallsQuery, ListCallsResult, NormalizedCall, VoiceProvider } from './types';

const MAX_PAGE = 1000;

/** Retell's call_status values of a call that may never have connected. */
const UNCONNECTED_STATUSES = ['not_connected', 'error'];

/**
 * Where the listing is: the pass (`started`: calls started since the date; `unconnected`: calls
 * never connected that ended since it) and Retell's pagination key within it.
 */
interface RetellCursor {
  pass: 'started' | 'unconnected';
  key: string | null;
}

function readCursor(cursor: string | undefined): RetellCursor {
  if (!cursor) return { pass: 'started', key: null };
  try {
    // Our own cursor, but it came back through a client: each field is checked below.
    const value = JSON.parse(cursor) as Partial<RetellCursor>;
    if (value.pass === 'started' || value.pass === 'unconnected')
      return { pass: value.pass, key: typeof value.key === 'string' ? value.key : null };
  } catch {
    // An unreadable cursor starts from the top.
  }
  return { pass: 'started', key: null };
}

export function createRetellProvider(options: ProviderHttpOptions): VoiceProvider {
  const http = createProviderHttp(options, (apiKey) => ({ authorization: `Bearer ${apiKey}` }));
  const { send, readJson, discard, unexpected, getJson, deleteAt } = http;
  const cachedName = createNameCache();

  async function getCall(apiKey: string, callId: string): Promise<{ call: NormalizedCall; raw: unknown }> {
    if (!isProviderId(callId)) throw new ProviderNotFoundError();
    const found = await getJson(apiKey, `/v2/get-call/${encodeURIComponent(callId)}`, [404, 400, 422]);
    if (!found) throw new ProviderNotFoundError();
    const parsed = parseRetellCall(found.json);
    if (!parsed.success)
      throw new VoiceProviderError('The voice provider sent a call we could not read', found.status);
    return { call: parsed.call, raw: found.json };
  }

  async function list(apiKey: string, body: Record<string, unknown>) {
    const result = await send(apiKey, '/v3/list-calls', { json: body, readOnly: true });
    if (!result.response.ok) {
      await discard(result);
      throw unexpected(result.response.status);
    }
    const parsed = retellListSchema.safeParse(await readJson(result));
    if (!parsed.success)
      throw new VoiceProviderError(
        'The voice provider sent a call list we could not read',
        result.response.status,
      );
    return parsed.data;
  }

  return {
    id: 'retell',
    name: VOICE_PLATFORMS.retell.name,
    signatureKey: 'apiKey',
    parseWebhook: parseRetellWebhook,
    readStoredPayload: readRetellStoredPayload,

    async listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult> {
      const limit = Math.min(MAX_PAGE, Math.max(1, Math.floor(q.limit ?? MAX_PAGE)));
      const cursor = readCursor(q.cursor);
      const since = q.startDate?.getTime();
      const filter =
        since === undefined
          ? undefined
          : cursor.pass === 'started'
            ? { start_timestamp: { type: 'number', op: 'ge', value: since } }
            : {
                call_status: { type: 'enum', op: 'in', value: UNCONNECTED_STATUSES },
                end_timestamp: { type: 'number', op: 'ge', value: since },
              };
      const page = await list(apiKey, {
        ...(filter ? { filter_criteria: filter } : {}),
        sort_order: 'ascending',
        limit,
        ...(cursor.key ? { pagination_key: cursor.key } : {}),
      });
      const items = page.items ?? [];
      const calls: NormalizedCall[] = [];
      const raw: unknown[] = [];
      for (const item of items) {
        const parsed = parseRetellCall(item);
        // One unreadable item must not stop a sync; it is skipped, the paging goes on past it.
        if (!parsed.success) continue;
        // A call that started was in the first pass (or started before the date).
        if (cursor.pass === 'unconnected' && isObject(item) && typeof item.start_timestamp === 'number')
          continue;
        calls.push(parsed.call);
        raw.push(item);
      }
      const more = page.has_more === true && !!page.pagination_key && items.length > 0;
      let next: RetellCursor | null = more ? { pass: cursor.pass, key: page.pagination_key ?? null } : null;
      if (!next && since !== undefined && cursor.pass === 'started')
        next = { pass: 'unconnected', key: null };
      return { calls, raw, nextCursor: next ? JSON.stringify(next) : null };
    },

    getCall,

    /**
     * DELETE /v2/delete-call/{call_id}, checked against Retell's OpenAPI document (operation
     * deleteCall, docs.retellai.com/api-references/delete-call and tryAGI/RetellAI's copy,
     * 2026-04-01) and its TypeScript SDK (RetellAI/retell-typescript-sdk, call.delete, 2026-07-31):
     * Bearer key, no body, 204 with no content. Retell documents no 404 for it: an id its key cannot
     * see is its 422 "Cannot find requested asset under given api key." (the same for get-call), and
     * a 404 is taken the same way. A 400 ("Invalid request format") or anything else unexpected is
     * thrown, never read as gone.
     */
    async deleteCall(apiKey, callId) {
      if (!isProviderId(callId)) return 'not_found';
      return deleteAt(apiKey, `/v2/delete-call/${encodeURIComponent(callId)}`, [404, 422]);
    },

    streamRecording: (apiKey, callId, range) => streamRecordingOfCall(http, getCall, apiKey, callId, range),

    checkKey: (apiKey: string) => checkKeyWith(apiKey, () => list(apiKey, { limit: 1 })),

    /** A call's "pathway" on Retell is its agent: named by GET /get-agent/{agent_id}. */
    async getPathwayName(apiKey, agentId) {
      if (!isProviderId(agentId)) return null;
      return cachedName(apiKey, agentId, async () => {
        const found = await getJson(apiKey, `/get-agent/${encodeURIComponent(agentId)}`, [404, 400]);
        const parsed = found ? retellAgentSchema.safeParse(found.json) : null;
        return parsed?.success ? (parsed.data.agent_name ?? null) : null;
      });
    },
  };
}
