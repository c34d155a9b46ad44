/**
 * A sync that outlasts its POST (202) runs on in the server's background: the browser follows
 * GET {sync URL}/runs/{id} until it ends, reporting progress on the way. A 409 (a sync of the
 * account already running) is followed the same way instead of failing. The client's sync is
 * /api/client/calls/sync; the admin's "Sync now" is the same endpoint under
 * /api/admin/clients/{id}/sync.
 */
import type { SyncBusy, SyncProgress, SyncResult } from '../../../contract/calls';
import { ApiError, apiJson, getJson } from '../../lib/api';

const POLL_MS = 1_000;

const isProgress = (answer: SyncResult | SyncProgress): answer is SyncProgress =>
  'runId' in answer && 'status' in answer;

/** The run a 409 names, when the sync holding the lock is known. */
function busyRunOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    // JSON.parse returns any; the sync route's 409 carries a SyncBusy body
    return (JSON.parse(error.bodyText) as SyncBusy).runId;
  } catch {
    return null;
  }
}

export const CLIENT_SYNC_URL = '/api/client/calls/sync';

const runUrl = (syncUrl: string, runId: string) => `${syncUrl}/runs/${encodeURIComponent(runId)}`;

async function follow(
  syncUrl: string,
  start: SyncProgress,
  onProgress: (p: SyncProgress) => void,
): Promise<SyncResult> {
  let progress = start;
  while (progress.status === 'running') {
    onProgress(progress);
    await new Promise((r) => setTimeout(r, POLL_MS));
    progress = await getJson<SyncProgress>(runUrl(syncUrl, progress.runId));
  }
  if (progress.status === 'succeeded' && progress.result) return progress.result;
  // Reported as the POST would have answered it: the server's own words in a failure toast.
  throw new ApiError(
    progress.status === 'interrupted' ? 503 : 502,
    '',
    JSON.stringify({ message: progress.message }),
  );
}

/** Starts a sync (or joins the one running) and settles with its result. */
export async function syncAndFollow(
  onProgress: (p: SyncProgress) => void,
  syncUrl = CLIENT_SYNC_URL,
): Promise<SyncResult> {
  let answer: SyncResult | SyncProgress;
  try {
    answer = await apiJson<SyncResult | SyncProgress>('POST', syncUrl);
  } catch (error) {
    const runId = busyRunOf(error);
    if (!runId) throw error;
    answer = await getJson<SyncProgress>(runUrl(syncUrl, runId));
  }
  return isProgress(answer) ? follow(syncUrl, answer, onProgress) : answer;
}
