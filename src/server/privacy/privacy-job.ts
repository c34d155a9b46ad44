/**
 * The privacy job, every minute on every instance: finishes the re-redactions asked
 * for (each under its client's lease, so one instance does each) and applies every client's
 * retention (idempotent: each cut-off is remembered; each client's sweep under its lease, so
 * instances do not sweep the same client at once). A change of settings wakes the same work at
 * once for its client (wakePrivacyWork), so it does not wait for the next minute.
 */
import type { AppDeps } from '../context';
import type { Job } from '../http/jobs';
import { loadPrivacy } from './privacy-settings';
import { pendingReRedactions, reRedactClient } from './re-redaction';
import { applyAllRetention, applyRetention } from './retention';

export const PRIVACY_JOB_INTERVAL_MS = 60_000;

type Deps = Pick<AppDeps, 'db' | 'now'>;

/**
 * One turn: every pending re-redaction, then retention for one client or for all. The minute
 * job names itself (`leaseOwner`), so instances sweeping every client split them between them.
 */
export async function runPrivacyWork(
  deps: Deps,
  clientId: string | null,
  leaseOwner?: string,
): Promise<void> {
  const pending = await pendingReRedactions(deps.db);
  for (const id of pending)
    if (clientId === null || id === clientId) await reRedactClient(deps.db, id, deps.now);
  if (clientId === null) await applyAllRetention(deps.db, deps.now(), leaseOwner);
  else await applyRetention(deps.db, clientId, (await loadPrivacy(deps.db, clientId)).retention, deps.now());
}

/** Starts the work for a client (or all) now; the app's closing waits for it (deps.inFlight). */
export function wakePrivacyWork(
  deps: AppDeps,
  clientId: string | null,
  onError?: (e: unknown) => void,
): void {
  deps.inFlight.add(runPrivacyWork(deps, clientId).catch((error) => onError?.(error)));
}

/** Resolves once the work woken in this app has ended. */
export async function privacyWorkSettled(deps: Pick<AppDeps, 'inFlight'>): Promise<void> {
  await deps.inFlight.settled();
}

export function privacyJob(deps: AppDeps, onError: (error: unknown) => void): Job {
  return {
    name: 'privacy',
    intervalMs: PRIVACY_JOB_INTERVAL_MS,
    runAtStart: true,
    run: () => runPrivacyWork(deps, null, deps.instanceId).catch(onError),
  };
}
