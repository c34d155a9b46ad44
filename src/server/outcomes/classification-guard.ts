/**
 * Calls stored before outcomes existed, or under an older list, are re-classified in the
 * background on the first read that needs them; a save starts it at once. Remembers the clients
 * this instance has seen fully classified, so later reads do not look again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { needsReclassification, reclassifyClient } from './reclassify';

export interface ClassificationGuard {
  /** Starts a background run when the client has calls classified under another list. */
  ensure(clientId: string): Promise<void>;
  /** Starts a background run now (after a save). */
  restart(clientId: string): void;
}

export function createClassificationGuard(
  db: Kysely<Database>,
  now: () => number,
  log: FastifyBaseLogger,
): ClassificationGuard {
  const classified = new Set<string>();
  const restart = (clientId: string) => {
    classified.delete(clientId);
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
      if (await needsReclassification(db, clientId)) restart(clientId);
      else classified.add(clientId);
    },
  };
}

const guards = new WeakMap<Kysely<Database>, ClassificationGuard>();

/**
 * The one guard of an app (keyed by its database): the outcome routes' saves and every calls
 * view's outcome reads (client, admin, demo) share what it has seen.
 */
export function classificationGuardOf(
  db: Kysely<Database>,
  now: () => number,
  log: FastifyBaseLogger,
): ClassificationGuard {
  let guard = guards.get(db);
  if (!guard) {
    guard = createClassificationGuard(db, now, log);
    guards.set(db, guard);
  }
  return guard;
}
