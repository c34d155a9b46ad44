/**
 * Pull sync: asks the provider for a client's calls since its watermark, oldest first, page by
 * page, and merges them through the repository. Incremental, idempotent, and serialised per
 * client by a lease in the database, so two syncs (two tabs, two instances, sync-all) never
 * interleave; the second waits for the first and then finds little left to do.
 */
import type { SyncResult } from '../../contract/calls';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { HttpError, badRequest, notFound } from '../errors';
import { ProviderAuthError, ProviderNotFoundError } from '../providers/voice/errors';
import { voiceOf } from '../providers/voice/registry';
import type { NormalizedCall } from '../providers/voice/types';
import { type CallsRepository, createCallsRepository } from './calls-repository';
import { resolvePathwayNames } from './pathways';
import { finishSyncRun, startSyncRun } from './sync-runs';
import { findClient, releaseSyncLease, tryTakeSyncLease, updateClient } from '../clients/clients-repository';

const FIRST_SYNC_DAYS = 90;
const PAGE_SIZE = 1000;
const LEASE_MS = 5 * 60 * 1000;
const LOCK_WAIT_MS = 120_000;
const LOCK_POLL_MS = 250;
/** Detail requests in flight at once; the adapter also bounds requests per key. */
const DETAIL_CONCURRENCY = 3;
/** Unconfirmed webhook calls looked up per sync (the rest wait for the next one). */
const SETTLE_BATCH = 200;
/**
 * An announced call the provider still does not know this long after it arrived was never made
 * (a forged or mistaken delivery): the sync removes it. Younger ones may just be on their way.
 */
export const UNCONFIRMED_GRACE_MS = 60 * 60 * 1000;

async function acquireLease(deps: AppDeps, clientId: string): Promise<boolean> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (Date.now() < deadline) {
    if (await tryTakeSyncLease(deps.db, clientId, deps.instanceId, deps.now(), LEASE_MS)) return true;
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
  return false;
}

async function releaseLease(deps: AppDeps, clientId: string): Promise<void> {
  await releaseSyncLease(deps.db, clientId, deps.instanceId);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

export function describeSync(provider: string, created: number, updated: number, unfetched = 0): string {
  const synced =
    created === 0 && updated === 0
      ? `No new calls from ${provider}`
      : `Synced ${created + updated} calls from ${provider} (${created} new, ${updated} updated)`;
  if (unfetched === 0) return synced;
  const calls = unfetched === 1 ? '1 call' : `${unfetched} calls`;
  return `${synced}. ${provider} did not send the details of ${calls}; the next sync fetches them again.`;
}

/** Translates provider failures into answers; a rejected key is also remembered on the client. */
async function providerFailure(deps: AppDeps, client: ClientRow, error: unknown): Promise<never> {
  if (error instanceof ProviderAuthError) {
    await updateClient(deps.db, client.id, { api_key_status: 'invalid', updated_at: deps.now() });
    throw badRequest(
      `${voiceOf(deps.voices, client).name} rejected the API key. Update the key and try again.`,
    );
  }
  // Other provider failures are answered by app.ts's error handler (502).
  throw error;
}

/** Who started a sync, as sync_runs records it: 'client', 'admin:{id}', 'sync-all:{id}', 'system'. */
export type SyncStarter = 'client' | 'system' | `admin:${string}` | `sync-all:${string}`;

export async function syncClientCalls(
  deps: AppDeps,
  clientId: string,
  startedBy: SyncStarter = 'client',
): Promise<SyncResult> {
  const client = await findClient(deps.db, clientId);
  if (!client) throw notFound('Client not found');
  if (!client.bland_api_key_enc)
    throw badRequest(
      `No ${voiceOf(deps.voices, client).name} API key is connected yet: add it in Settings → Security → Update API Key, then sync again`,
    );
  if (!(await acquireLease(deps, clientId)))
    throw new HttpError(409, 'Another sync of this account is still running');
  const run = await startSyncRun(deps, clientId, startedBy);
  try {
    // Re-read under the lease: a sync that just finished has moved the watermark.
    const fresh = await findClient(deps.db, clientId);
    if (!fresh) throw notFound('Client not found');
    const result = await runSync(deps, fresh);
    await finishSyncRun(deps, run, result);
    return result;
  } catch (error) {
    await finishSyncRun(deps, run, error);
    throw error;
  } finally {
    await releaseLease(deps, clientId);
  }
}

async function runSync(deps: AppDeps, client: ClientRow): Promise<SyncResult> {
  const apiKey = deps.secrets.decrypt(client.bland_api_key_enc!);
  const voice = voiceOf(deps.voices, client);
  const repo = createCallsRepository(deps.db, deps.now);
  const startDate = new Date(client.sync_watermark ?? deps.now() - FIRST_SYNC_DAYS * 24 * 60 * 60 * 1000);
  let created = 0;
  let updated = 0;
  let newest = client.sync_watermark ?? 0;
  let oldestOpen: number | null = null;
  // Calls whose details could not be fetched (after the adapter's retries): stored from the list,
  // and the watermark stays before them so the next sync fetches them again.
  let oldestUnfetched: number | null = null;
  let unfetched = 0;

  try {
    let cursor: string | undefined;
    for (;;) {
      const page = await voice.listCalls(apiKey, { startDate, cursor, limit: PAGE_SIZE });

      // List items carry no transcripts: fetch details for the calls that have ended.
      const details = await mapLimit(page.calls, DETAIL_CONCURRENCY, async (call) => {
        if (call.status === 'active') return { call, raw: null as unknown, fetched: true };
        return voice.getCall(apiKey, call.providerCallId).then(
          (detail) => ({ ...detail, fetched: true }),
          (error) => {
            if (error instanceof ProviderAuthError) throw error;
            // Keep what the list said; the watermark stays before this call (see below).
            return { call, raw: null as unknown, fetched: false };
          },
        );
      });
      const pathwayIds = details.map((d) => d.call.pathwayId).filter((id): id is string => !!id);
      const names = await resolvePathwayNames(deps, client, apiKey, pathwayIds);
      const result = await repo.upsertCalls(
        client,
        details.map(({ call, raw }: { call: NormalizedCall; raw: unknown }) => ({
          ...call,
          pathway: call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '',
          source: 'sync' as const,
          ...(raw ? { raw } : {}),
        })),
      );
      created += result.created;
      updated += result.updated;
      for (const { call, fetched } of details) {
        newest = Math.max(newest, call.createdAt);
        if (call.status === 'active') oldestOpen = Math.min(oldestOpen ?? call.createdAt, call.createdAt);
        if (!fetched) {
          unfetched++;
          oldestUnfetched = Math.min(oldestUnfetched ?? call.createdAt, call.createdAt);
        }
      }
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    const settled = await settleUnverified(deps, client, apiKey, repo);
    updated += settled;
  } catch (error) {
    await providerFailure(deps, client, error);
  }

  // Next time start at the newest call seen, or earlier if a call was still in progress (so its
  // ending is picked up) or its details could not be fetched (so they are). The inclusive
  // boundary is de-duplicated by provider call id.
  const held = [oldestOpen, oldestUnfetched].filter((t): t is number => t !== null);
  const watermark = held.length > 0 ? Math.min(...held) : newest || client.sync_watermark;
  await updateClient(deps.db, client.id, {
    sync_watermark: watermark,
    last_sync_at: deps.now(),
    api_key_status: 'valid',
    updated_at: deps.now(),
  });
  return {
    success: true,
    created,
    updated,
    ...(unfetched > 0 ? { unfetched } : {}),
    message: describeSync(voice.name, created, updated, unfetched),
  };
}

/**
 * Webhook calls the provider could not confirm when they arrived, and that the list above did not
 * bring (older than the watermark, or outside the first sync's window): each is asked for by id.
 * The provider's data replaces the announcement; a call it says it never made is removed once the
 * grace has passed. Answers how many calls were confirmed.
 */
async function settleUnverified(
  deps: AppDeps,
  client: ClientRow,
  apiKey: string,
  repo: CallsRepository,
): Promise<number> {
  const pending = await repo.listUnverified(client.id, SETTLE_BATCH);
  if (pending.length === 0) return 0;
  const never: string[] = [];
  const found = await mapLimit(pending, DETAIL_CONCURRENCY, async (row) => {
    try {
      const { call, raw } = await voiceOf(deps.voices, client).getCall(apiKey, row.provider_call_id);
      return call.providerCallId === row.provider_call_id ? { call, raw, source: row.source } : null;
    } catch (error) {
      if (error instanceof ProviderAuthError) throw error;
      if (error instanceof ProviderNotFoundError && row.updated_at < deps.now() - UNCONFIRMED_GRACE_MS) {
        never.push(row.id);
      }
      return null; // not answering now: the next sync asks again
    }
  });
  const confirmed = found.filter((f) => f !== null);
  await repo.deleteUnverified({ clientId: client.id, ids: never });
  if (confirmed.length === 0) return 0;
  const pathwayIds = confirmed.map((f) => f.call.pathwayId).filter((id): id is string => !!id);
  const names = await resolvePathwayNames(deps, client, apiKey, pathwayIds);
  const result = await repo.upsertCalls(
    client,
    confirmed.map(({ call, raw, source }) => ({
      ...call,
      pathway: call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '',
      source,
      raw,
    })),
  );
  return result.created + result.updated;
}
