/**
 * The sync history (issue 16's Support Tools): a row when a sync starts, completed with what it
 * found or why it failed, so an admin can see when a client's calls were last pulled and by whom.
 */
import { randomUUID } from 'node:crypto';
import type { SyncResult } from '../../contract/calls';
import type { AppDeps } from '../context';
import { HttpError } from '../errors';
import { isVoiceProviderError } from '../providers/voice/errors';

export async function startSyncRun(deps: Pick<AppDeps, 'db' | 'now'>, clientId: string, startedBy: string) {
  const id = randomUUID();
  await deps.db
    .insertInto('sync_runs')
    .values({
      id,
      client_id: clientId,
      started_by: startedBy,
      started_at: deps.now(),
      finished_at: null,
      error: null,
    })
    .execute();
  return id;
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
): Promise<void> {
  const result = outcome as Partial<SyncResult>;
  const succeeded = typeof result === 'object' && result !== null && result.success === true;
  await deps.db
    .updateTable('sync_runs')
    .set(
      succeeded
        ? {
            finished_at: deps.now(),
            created: result.created ?? 0,
            updated: result.updated ?? 0,
            unfetched: result.unfetched ?? 0,
          }
        : { finished_at: deps.now(), error: syncErrorMessage(outcome) },
    )
    .where('id', '=', runId)
    .execute();
}
