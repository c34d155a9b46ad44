/**
 * Sync for every active client with a key, a few at a time. One client's failure (a revoked key,
 * a provider outage) is recorded and the others carry on; the answer names who failed and why.
 */
import pLimit from 'p-limit';
import type { SyncAllFailure, SyncAllResult } from '../../../contract/admin';
import { clientNameOfRow } from '../../../contract/admin';
import type { SyncResult } from '../../../contract/calls';
import { listSyncableClients } from '../../clients/clients-repository';
import type { AppDeps } from '../../context';
import { HttpError } from '../../http/errors';
import { isVoiceProviderError } from '../../providers/voice/errors';
import { syncErrorMessage } from './sync-runs';

export type SyncOne = (
  deps: AppDeps,
  clientId: string,
  startedBy: `sync-all:${string}`,
) => Promise<SyncResult>;

/** DESIGN §7: bounded concurrency towards the provider. */
export const SYNC_ALL_CONCURRENCY = 3;

export interface SyncAllLogger {
  error(obj: object, msg: string): void;
}

export async function syncAllClients(
  deps: AppDeps,
  syncOne: SyncOne,
  log: SyncAllLogger,
  adminId: string,
  concurrency = SYNC_ALL_CONCURRENCY,
): Promise<SyncAllResult> {
  const clients = await listSyncableClients(deps.db);
  const withKey = clients.filter((c) => c.bland_api_key_enc);
  const skipped = clients.length - withKey.length;

  const failures: SyncAllFailure[] = [];
  let synced = 0;
  let created = 0;
  let updated = 0;
  await pLimit(concurrency).map(withKey, async (client) => {
    try {
      const result = await syncOne(deps, client.id, `sync-all:${adminId}`);
      synced++;
      created += result.created;
      updated += result.updated;
    } catch (error) {
      failures.push({
        clientId: client.id,
        name: clientNameOfRow(client),
        message: failureMessage(error, log, client.id),
      });
    }
  });

  const failed = failures.length;
  return {
    success: failed === 0,
    synced,
    failed,
    skipped,
    created,
    updated,
    failures,
    message: summary(synced, failed, skipped, failures),
  };
}

/** Known failures carry a message meant for people; anything else is logged and not shown. */
function failureMessage(error: unknown, log: SyncAllLogger, clientId: string): string {
  if (!(error instanceof HttpError || isVoiceProviderError(error)))
    log.error({ err: error, clientId }, 'sync-all: client sync failed');
  return syncErrorMessage(error);
}

function summary(synced: number, failed: number, skipped: number, failures: SyncAllFailure[]): string {
  const noun = (n: number) => (n === 1 ? 'client' : 'clients');
  const parts = [`Synced ${synced} ${noun(synced)}`];
  if (failed > 0)
    parts.push(`${failed} failed (${failures.map((f) => `${f.name}: ${f.message}`).join('; ')})`);
  if (skipped > 0) parts.push(`${skipped} without an API key skipped`);
  return `${parts.join(', ')}.`;
}
