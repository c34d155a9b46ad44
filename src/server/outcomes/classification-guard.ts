/**
 * Calls stored before outcomes existed, or under an older list, are re-classified in the
 * background on the first read that needs them; a save starts it at once. Remembers the clients
 * this instance has seen fully classified (in the app's dependencies), so later reads do not look
 * again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { markWalkPending } from '../background/client-walk';
import type { AppDeps } from '../context';
import { needsReclassification, reclassifyClient } from './reclassify';

export interface ClassificationGuard {
  /** Starts a background run when the client has calls classified under another list. */
  ensure(clientId: string): Promise<void>;
  /**
   * Starts a background run now (after a save). Resolves once the run is marked pending, so the
   * next look at the outcomes shows it even before the run has claimed its lease.
   */
  restart(clientId: string): Promise<void>;
}

/**
 * A guard over the app's shared memory of classified clients (`deps.classifiedClients`): the
 * outcome routes' saves and every calls view's outcome reads (client, admin, demo) share what it
 * has seen. Failures of a background run are logged on `log`.
 */
export function classificationGuardOf(
  deps: Pick<AppDeps, 'db' | 'now' | 'classifiedClients'>,
  log: FastifyBaseLogger,
): ClassificationGuard {
  const { db, now, classifiedClients: classified } = deps;
  const restart = async (clientId: string) => {
    classified.delete(clientId);
    await markWalkPending(db, clientId, 'reclassify');
    reclassifyClient(db, clientId, now)
      .then((ran) => {
        if (ran) classified.add(clientId);
      })
      .catch((error) => log.warn({ err: error, clientId }, 'outcome re-classification failed'));
  };
  return {
    restart,
    async ensure(clientId) {
      if (classified.has(clientId)) return;
      if (await needsReclassification(db, clientId)) await restart(clientId);
      else classified.add(clientId);
    },
  };
}
