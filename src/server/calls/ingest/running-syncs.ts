/**
 * The syncs running in this process, by run id: their live tally (fresher than the last
 * heartbeat in sync_runs) and the handle that stops them. One map per app, in its dependencies
 * (`deps.syncs`, made in bootstrap.ts); sync.ts adds and removes its runs. Types only and the
 * map's factory, so that the dependencies' type can name them.
 */
import type { RetriedErrors, SyncResult } from '../../../contract/calls';

export interface SyncTally {
  /** Calls read from the provider so far. */
  fetched: number;
  created: number;
  updated: number;
  retried: RetriedErrors;
}

/** A sync running in this process. */
export interface RunningSync {
  runId: string;
  clientId: string;
  startedAt: number;
  tally: SyncTally;
  /** Settles with the result, or rejects as the request would have (always handled once). */
  done: Promise<SyncResult>;
  abort: AbortController;
}

export type RunningSyncs = Map<string, RunningSync>;

export const createRunningSyncs = (): RunningSyncs => new Map();
