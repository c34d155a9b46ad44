/**
 * Pull sync: asks the provider for a client's calls since its watermark, oldest first, page by
 * page, and merges them through the repository. Incremental, idempotent, and serialised per
 * client by a lease in the database (background/lease.ts, `sync:{client}`), so two syncs (two tabs, two instances,
 * sync-all) never interleave: the second is refused at once with who holds the lock (409).
 * A sync runs in the background of the request that started it (startClientSync): the route
 * answers with the result when it comes quickly, else with the run to follow. While it runs, a
 * heartbeat renews the lock and records progress; retried provider errors are counted per status.
 */
import pLimit from 'p-limit';
import type { SyncResult } from '../../../contract/calls';
import { claimLease, releaseLease, releaseLeasesNamed, renewLease } from '../../background/lease';
import { findClient, updateClient } from '../../clients/clients-repository';
import { isSqliteBusy } from '../../clients/db-errors';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { startJob } from '../../http/jobs';
import { ProviderAuthError, ProviderNotFoundError } from '../../providers/voice/errors';
import { withRetryListener } from '../../providers/voice/provider-http';
import { platformNameFor, voiceOf } from '../../providers/voice/registry';
import type { NormalizedCall } from '../../providers/voice/types';
import { type CallsRepository, createCallsRepository } from '../write/calls-repository';
import { resolvePathwayNames } from './pathways';
import { adminNames, describeStarter } from './support-views';
import {
  finishSyncRun,
  heartbeatSyncRun,
  markInterruptedRuns,
  runningRunOf,
  SYNC_HEARTBEAT_MS,
  SYNC_STALE_MS,
  SyncInterruptedError,
  type SyncTally,
  startSyncRun,
} from './sync-runs';

const FIRST_SYNC_DAYS = 90;
/** The lease of a client's sync is named this and the client's id. */
const SYNC_LEASE = 'sync:';
const PAGE_SIZE = 1000;
/** Detail requests in flight at once; the adapter also bounds requests per key. */
const DETAIL_CONCURRENCY = 3;
/** Unconfirmed webhook calls looked up per sync (the rest wait for the next one). */
const SETTLE_BATCH = 200;
/**
 * An announced call the provider still does not know this long after it arrived was never made
 * (a forged or mistaken delivery): the sync removes it. Younger ones may just be on their way.
 */
export const UNCONFIRMED_GRACE_MS = 60 * 60 * 1000;

/** 409: the client's lock is held; names the run holding it, when there is one. */
export class SyncBusyError extends HttpError {
  constructor(
    message: string,
    readonly holder: { runId: string; startedBy: string; startedAt: string } | null,
  ) {
    super(409, message);
  }
}

async function busyError(deps: AppDeps, clientId: string): Promise<SyncBusyError> {
  const run = await runningRunOf(deps.db, clientId);
  if (!run) return new SyncBusyError('Another sync of this account is still running', null);
  const names = await adminNames(deps.db, [run.started_by.split(':')[1]].filter(Boolean));
  const startedBy = describeStarter(run.started_by, names);
  const startedAt = new Date(Number(run.started_at)).toISOString();
  return new SyncBusyError(
    `A sync of this account is already running: started by ${startedBy.charAt(0).toLowerCase()}${startedBy.slice(1)} at ${startedAt.slice(0, 19).replace('T', ' ')} UTC. It carries on in the background.`,
    { runId: run.id, startedBy, startedAt },
  );
}

import type { RunningSync } from './running-syncs';

export type { RunningSync };

/** This process's live view of a run (fresher than its last heartbeat), when it runs here. */
export const runningSync = (deps: AppDeps, runId: string) => deps.syncs.get(runId);

/** Stops every sync this process runs (the server is closing): each ends as interrupted. */
export async function stopSyncs(deps: AppDeps): Promise<void> {
  const syncs = [...deps.syncs.values()];
  for (const sync of syncs) sync.abort.abort(new SyncInterruptedError());
  await Promise.allSettled(syncs.map((s) => s.done));
}

/**
 * At start: runs left by a dead process are marked interrupted and their locks freed. On SQLite
 * there is one process, so everything running was left by the previous one; on PostgreSQL other
 * instances may be syncing, so only runs whose heartbeat is stale (their locks expire alike).
 */
export async function recoverSyncsAtStart(deps: AppDeps): Promise<{ interrupted: number }> {
  if (deps.dialect === 'sqlite') {
    await releaseLeasesNamed(deps.db, SYNC_LEASE);
    return { interrupted: await markInterruptedRuns(deps.db) };
  }
  return { interrupted: await markInterruptedRuns(deps.db, { staleBefore: deps.now() - SYNC_STALE_MS }) };
}

export function describeSync(provider: string, created: number, updated: number, unfetched = 0): string {
  const Provider = provider.charAt(0).toUpperCase() + provider.slice(1);
  const synced =
    created === 0 && updated === 0
      ? `No new calls from ${provider}`
      : `Synced ${created + updated} calls from ${provider} (${created} new, ${updated} updated)`;
  if (unfetched === 0) return synced;
  const calls = unfetched === 1 ? '1 call' : `${unfetched} calls`;
  return `${synced}. ${Provider} did not send the details of ${calls}; the next sync fetches them again.`;
}

/**
 * How a sync's answers name the platform: a sync the client started answers the client, who reads
 * the platform's name only when the agency shows it; the agency's syncs name it.
 */
function platformNameForStarter(deps: AppDeps, client: ClientRow, startedBy: SyncStarter): string {
  return startedBy === 'client' ? platformNameFor(deps.voices, client) : voiceOf(deps.voices, client).name;
}

/** Translates provider failures into answers; a rejected key is also remembered on the client. */
async function providerFailure(
  deps: AppDeps,
  client: ClientRow,
  error: unknown,
  provider: string,
): Promise<never> {
  if (error instanceof ProviderAuthError) {
    await updateClient(deps.db, client.id, { api_key_status: 'invalid', updated_at: deps.now() });
    const Provider = provider.charAt(0).toUpperCase() + provider.slice(1);
    throw badRequest(`${Provider} rejected the API key. Update the key and try again.`);
  }
  // Other provider failures are answered by app.ts's error handler (502).
  throw error;
}

/** A sync without a key: the client whose key the agency keeps is told to ask the agency. */
function noKeyMessage(deps: AppDeps, client: ClientRow, startedBy: SyncStarter): string {
  if (startedBy === 'client' && client.show_platform_details !== 1) {
    return client.client_manages_api_key === 1
      ? 'No API key is connected yet: add it in Settings → Security → Update API Key, then sync again'
      : 'No API key is connected yet: your agency connects it, then sync again';
  }
  return `No ${voiceOf(deps.voices, client).name} API key is connected yet: add it in Settings → Security → Update API Key, then sync again`;
}

/** Who started a sync, as sync_runs records it: 'client', 'admin:{id}', 'sync-all:{id}', 'system'. */
export type SyncStarter = 'client' | 'system' | `admin:${string}` | `sync-all:${string}`;

/**
 * Checks the client, takes its lock (or answers 409 at once), records the run and starts the
 * sync without waiting for it. Runs of the client still marked running are left by a dead
 * process (this one holds the lock now): they are marked interrupted first.
 */
export async function startClientSync(
  deps: AppDeps,
  clientId: string,
  startedBy: SyncStarter = 'client',
): Promise<RunningSync> {
  const client = await findClient(deps.db, clientId);
  if (!client) throw notFound('Client not found');
  if (!client.bland_api_key_enc) throw badRequest(noKeyMessage(deps, client, startedBy));
  const owner = deps.instanceId;
  const lease = `${SYNC_LEASE}${clientId}`;
  // One transaction, so whoever finds the lock taken also finds the run that holds it.
  const run = await deps.db
    .transaction()
    .execute(async (trx) => {
      if (!(await claimLease(trx, lease, owner, deps.now(), SYNC_STALE_MS))) return null;
      await markInterruptedRuns(trx, { clientId });
      return startSyncRun({ db: trx, now: deps.now }, clientId, startedBy);
    })
    .catch((error: unknown) => {
      // SQLite: another connection was writing the same rows past the busy timeout, which is the
      // other sync taking this very lock. Busy, as the lock would have said.
      if (isSqliteBusy(error)) return null;
      throw error;
    });
  if (!run) throw await busyError(deps, clientId);
  const { id: runId, startedAt } = run;
  const began = performance.now();

  const tally: SyncTally = { fetched: 0, created: 0, updated: 0, retried: {} };
  const abort = new AbortController();
  const stopHeartbeat = startJob(
    {
      name: 'sync-heartbeat',
      intervalMs: SYNC_HEARTBEAT_MS,
      run: async () => {
        if (!(await renewLease(deps.db, lease, owner, deps.now(), SYNC_STALE_MS)))
          abort.abort(new SyncInterruptedError('Interrupted: this sync stalled and another one took over.'));
        else await heartbeatSyncRun(deps, runId, tally);
      },
    },
    () => {
      // The database is unreachable for a moment: the next beat tries again.
    },
  );

  const syncs = deps.syncs;
  const done = (async () => {
    try {
      // Re-read under the lock: a sync that just finished has moved the watermark.
      const fresh = await findClient(deps.db, clientId);
      if (!fresh) throw notFound('Client not found');
      const result = await withRetryListener(
        (cause) => {
          tally.retried[cause] = (tally.retried[cause] ?? 0) + 1;
        },
        () => runSync(deps, fresh, tally, abort.signal, platformNameForStarter(deps, fresh, startedBy)),
      );
      const withRetries =
        Object.keys(tally.retried).length > 0 ? { ...result, retried: { ...tally.retried } } : result;
      await finishSyncRun(deps, runId, withRetries, tally);
      deps.metrics.syncRun('succeeded', (performance.now() - began) / 1000);
      return withRetries;
    } catch (error) {
      await finishSyncRun(deps, runId, error, tally).catch(() => {});
      deps.metrics.syncRun(
        error instanceof SyncInterruptedError ? 'interrupted' : 'failed',
        (performance.now() - began) / 1000,
      );
      throw error;
    } finally {
      stopHeartbeat();
      syncs.delete(runId);
      await releaseLease(deps.db, lease, owner).catch(() => {});
    }
  })();
  done.catch(() => {}); // recorded in the run; whoever awaits `done` sees the error too
  const sync: RunningSync = { runId, clientId, startedAt, tally, done, abort };
  syncs.set(runId, sync);
  return sync;
}

/** A whole sync, awaited (sync-all, Support Tools). */
export async function syncClientCalls(
  deps: AppDeps,
  clientId: string,
  startedBy: SyncStarter = 'client',
): Promise<SyncResult> {
  return (await startClientSync(deps, clientId, startedBy)).done;
}

async function runSync(
  deps: AppDeps,
  client: ClientRow,
  tally: SyncTally,
  signal: AbortSignal,
  /** The platform as the one who started the sync may read it. */
  provider: string,
): Promise<SyncResult> {
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

  // On PostgreSQL a page is written while the next one is read (the write waits on the
  // database, the read on the provider); pages are still written one after the other, in order.
  let writing: Promise<void> = Promise.resolve();
  try {
    let cursor: string | undefined;
    for (;;) {
      signal.throwIfAborted();
      const page = await voice.listCalls(apiKey, { startDate, cursor, limit: PAGE_SIZE });

      // List items carry no transcripts: fetch details for the calls that have ended.
      const details = await pLimit(DETAIL_CONCURRENCY).map(page.calls, async (call) => {
        signal.throwIfAborted();
        tally.fetched++;
        // Widens null to the unknown raw payload getCall's branch gives
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
      signal.throwIfAborted();
      const pathwayIds = details.map((d) => d.call.pathwayId).filter((id): id is string => !!id);
      const names = await resolvePathwayNames(deps, client, apiKey, pathwayIds);
      const calls = details.map(({ call, raw }: { call: NormalizedCall; raw: unknown }) => ({
        ...call,
        pathway: call.pathwayId ? (names.get(call.pathwayId) ?? call.pathwayId) : '',
        source: 'sync' as const,
        ...(raw ? { raw } : {}),
      }));
      await writing;
      signal.throwIfAborted();
      writing = repo.upsertCalls(client, calls).then((result) => {
        created += result.created;
        updated += result.updated;
        tally.created = created;
        tally.updated = updated;
      });
      // Its failure is thrown where it is awaited (next page or below), not reported as unhandled.
      writing.catch(() => {});
      // SQLite writes on this thread: the next page's requests would wait out the write and time
      // out, so there the page is written before the next is read.
      if (deps.dialect === 'sqlite') await writing;
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
    await writing;
    const settled = await settleUnverified(deps, client, apiKey, repo);
    updated += settled;
  } catch (error) {
    // A page still being written finishes first: the sync ends (and frees its lock) after it.
    await writing.catch(() => {});
    await providerFailure(deps, client, error, provider);
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
    message: describeSync(provider, created, updated, unfetched),
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
  const found = await pLimit(DETAIL_CONCURRENCY).map(pending, async (row) => {
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
