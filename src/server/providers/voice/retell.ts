/**
 * The Retell adapter (issue 18): Retell's REST API with the client's API key as a Bearer token,
 * over the shared HTTP client (provider-http.ts). Calls are listed by POST /v3/list-calls (the v2
 * list is retired), oldest first from the start date, paged by Retell's pagination_key; recordings
 * are streamed from the call's recording_url.
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
import { parseRetellCall, retellAgentSchema, retellListSchema } from './retell-payload';
import { parseRetellWebhook } from './retell-webhook';
import type { ListCallsQuery, ListCallsResult, NormalizedCall, VoiceProvider } from './types';

const MAX_PAGE = 1000;

export function createRetellProvider(options: ProviderHttpOptions): VoiceProvider {
  const http = createProviderHttp(options, (apiKey) => ({ authorization: `Bearer ${apiKey}` }));
  const { send, readJson, discard, unexpected, getJson } = http;
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
    name: VOICE_PROVIDER_NAMES.retell,
    signatureKey: 'apiKey',
    parseWebhook: parseRetellWebhook,

    async listCalls(apiKey: string, q: ListCallsQuery): Promise<ListCallsResult> {
      const limit = Math.min(MAX_PAGE, Math.max(1, Math.floor(q.limit ?? MAX_PAGE)));
      const page = await list(apiKey, {
        ...(q.startDate
          ? {
              filter_criteria: {
                start_timestamp: { type: 'number', op: 'ge', value: q.startDate.getTime() },
              },
            }
          : {}),
        sort_order: 'ascending',
        limit,
        ...(q.cursor ? { pagination_key: q.cursor } : {}),
      });
      const items = page.items ?? [];
      const calls: NormalizedCall[] = [];
      const raw: unknown[] = [];
      for (const item of items) {
        const parsed = parseRetellCall(item);
        // One unreadable item must not stop a sync; it is skipped, the paging goes on past it.
        if (!parsed.success) continue;
        calls.push(parsed.call);
        raw.push(item);
      }
      const more = page.has_more === true && !!page.pagination_key && items.length > 0;
      return { calls, raw, nextCursor: more ? (page.pagination_key ?? null) : null };
    },

    getCall,

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
