/**
 * The sync history (Support Tools): a row when a sync starts, a heartbeat with its
 * progress every few seconds while it runs, completed with what it found or why it failed, so an
 * admin can see when a client's calls were last pulled, by whom, and which provider errors were
 * retried. A run whose process died is marked interrupted (point 9): at the next start on
 * SQLite (one process, so every running row is left from before), and on PostgreSQL once its
 * heartbeat is stale, or as soon as another sync of the client holds the lock.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { RetriedErrors, SyncProgress, SyncResult, SyncRunState } from '../../../contract/calls';
import type { AppDeps } from '../../context';
import type { Database, SyncRunsTable } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { isVoiceProviderError } from '../../providers/voice/errors';
import type { SyncTally } from './running-syncs';

/** How often the process running a sync renews its lock and writes its progress. */
export const SYNC_HEARTBEAT_MS = 5_000;
/** A lock or run whose heartbeat is older than this belongs to a process that is gone. */
export const SYNC_STALE_MS = 30_000;

export const INTERRUPTED_MESSAGE =
  'Interrupted: the server stopped before this sync finished. The next sync picks up where it left off.';

/** The server is stopping (or lost the lock): the run ends as interrupted, not failed. */
export class SyncInterruptedError extends HttpError {
  constructor(message = INTERRUPTED_MESSAGE) {
    super(503, message);
  }
}

export type { SyncTally } from './running-syncs';

export async function startSyncRun(
  deps: Pick<AppDeps, 'db' | 'now'>,
  clientId: string,
  startedBy: string,
): Promise<{ id: string; startedAt: number }> {
  const id = randomUUID();
  const now = deps.now();
  await deps.db
    .insertInto('sync_runs')
    .values({
      id,
      client_id: clientId,
      started_by: startedBy,
      started_at: now,
      finished_at: null,
      error: null,
      status: 'running',
      heartbeat_at: now,
      retried: null,
    })
    .execute();
  return { id, startedAt: now };
}

const retriedJson = (retried: RetriedErrors) =>
  Object.keys(retried).length > 0 ? JSON.stringify(retried) : null;

export function parseRetried(value: string | null): RetriedErrors {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1])),
    );
  } catch {
    return {};
  }
}

/** The running process's heartbeat: progress so far, and proof it is alive. */
export async function heartbeatSyncRun(
  deps: Pick<AppDeps, 'db' | 'now'>,
  runId: string,
  tally: SyncTally,
): Promise<void> {
  await deps.db
    .updateTable('sync_runs')
    .set({
      heartbeat_at: deps.now(),
      created: tally.created,
      updated: tally.updated,
      retried: retriedJson(tally.retried),
    })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute();
}

/** Known failures carry a message meant for people; anything else is recorded without detail. */
export function syncErrorMessage(error: unknown): string {
  if (error instanceof HttpError || isVoiceProviderError(error)) return error.message;
  return 'Sync failed unexpectedly';
}

export async function finishSyncRun(
  deps: Pick<AppDeps, 'db' | 'now'>,
  runId: string,
  outcome: SyncResult | unknown,
  tally?: SyncTally,
): Promise<void> {
  // The outcome may be a thrown value; only `success` is read, after the object check
  const result = outcome as Partial<SyncResult>;
  const succeeded = typeof result === 'object' && result !== null && result.success === true;
  const retried = tally ? retriedJson(tally.retried) : null;
  await deps.db
    .updateTable('sync_runs')
    .set(
      succeeded
        ? {
            finished_at: deps.now(),
            status: 'succeeded',
            created: result.created ?? 0,
            updated: result.updated ?? 0,
            unfetched: result.unfetched ?? 0,
            retried,
          }
        : {
            finished_at: deps.now(),
            status: outcome instanceof SyncInterruptedError ? 'interrupted' : 'failed',
            error: syncErrorMessage(outcome),
            ...(tally ? { created: tally.created, updated: tally.updated } : {}),
            retried,
          },
    )
    .where('id', '=', runId)
    .execute();
}

/**
 * Marks runs whose process is gone as interrupted, finished when they were last seen alive.
 * `clientId`: that client's runs (the caller holds its lock, so none of them can be alive);
 * `staleBefore`: runs whose heartbeat is older; neither: every running run (SQLite at start).
 */
export async function markInterruptedRuns(
  db: Kysely<Database>,
  scope: { clientId?: string; staleBefore?: number } = {},
): Promise<number> {
  let query = db
    .updateTable('sync_runs')
    .set((eb) => ({
      status: 'interrupted',
      error: INTERRUPTED_MESSAGE,
      finished_at: eb.fn.coalesce('heartbeat_at', 'started_at'),
    }))
    .where('status', '=', 'running');
  if (scope.clientId !== undefined) query = query.where('client_id', '=', scope.clientId);
  if (scope.staleBefore !== undefined) {
    const before = scope.staleBefore;
    query = query.where((eb) =>
      eb.or([
        eb('heartbeat_at', '<', before),
        eb.and([eb('heartbeat_at', 'is', null), eb('started_at', '<', before)]),
      ]),
    );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The client's run that holds (or held) the lock, newest first. */
export function runningRunOf(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('sync_runs')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '=', 'running')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findSyncRun(db: Kysely<Database>, clientId: string, runId: string) {
  return db
    .selectFrom('sync_runs')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('id', '=', runId)
    .executeTakeFirst();
}

type SyncRunRow = Selectable<SyncRunsTable>;

/**
 * A stored run as the browser follows it. `words` describes a finished run's counts (the
 * provider's name is the route's to know); `live` is the running process's own tally when it is
 * this one, fresher than the last heartbeat.
 */
export function toSyncProgress(
  row: Pick<
    SyncRunRow,
    'id' | 'status' | 'started_at' | 'created' | 'updated' | 'unfetched' | 'retried' | 'error'
  >,
  words: (created: number, updated: number, unfetched: number) => string,
  live?: SyncTally,
): SyncProgress {
  // The column is plain text; only SyncRunState values are ever written to it
  const status = row.status as SyncRunState;
  const created = live?.created ?? Number(row.created);
  const updated = live?.updated ?? Number(row.updated);
  const unfetched = Number(row.unfetched);
  const retried = live?.retried ?? parseRetried(row.retried);
  const fetched = live?.fetched ?? created + updated;
  const progress = {
    runId: row.id,
    status,
    startedAt: new Date(Number(row.started_at)).toISOString(),
    created,
    updated,
    fetched,
    retried,
  };
  if (status === 'succeeded') {
    const message = words(created, updated, unfetched);
    return {
      ...progress,
      message,
      result: {
        success: true,
        created,
        updated,
        ...(unfetched > 0 ? { unfetched } : {}),
        ...(Object.keys(retried).length > 0 ? { retried } : {}),
        message,
      },
    };
  }
  if (status === 'running') {
    const calls = fetched === 1 ? '1 call' : `${fetched.toLocaleString('en-US')} calls`;
    return { ...progress, message: `Syncing in the background: ${calls} read so far` };
  }
  return { ...progress, message: row.error ?? 'Sync failed unexpectedly' };
}
