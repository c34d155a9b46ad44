/**
 * The `client_outcomes` table: each client's ordered outcomes, its quality thresholds (* they decide Needs attention with the outcomes) and the version calls are classified under. A
 * client that never saved any has the defaults, at version 0.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_OUTCOMES, type Outcome, Outcomes } from '../../contract/outcomes';
import {
  DEFAULT_QUALITY_THRESHOLDS,
  QualityThresholds,
  type QualityThresholds as Thresholds,
} from '../../contract/quality';
import { requestWalk } from '../background/client-walk';
import type { Database } from '../db/schema';

export interface OutcomeSet {
  outcomes: Outcome[];
  thresholds: Thresholds;
  version: number;
}

export const DEFAULT_OUTCOME_SET: OutcomeSet = {
  outcomes: DEFAULT_OUTCOMES,
  thresholds: DEFAULT_QUALITY_THRESHOLDS,
  version: 0,
};

function parseThresholds(json: string | null): Thresholds {
  if (!json) return DEFAULT_QUALITY_THRESHOLDS;
  try {
    const parsed = QualityThresholds.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : DEFAULT_QUALITY_THRESHOLDS;
  } catch {
    return DEFAULT_QUALITY_THRESHOLDS;
  }
}

function parse(json: string): Outcome[] {
  try {
    const parsed = Outcomes.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : DEFAULT_OUTCOMES;
  } catch {
    return DEFAULT_OUTCOMES;
  }
}

/** Outcome sets of several clients at once (one query). */
export async function outcomeSetsOf(
  db: Kysely<Database>,
  clientIds: string[],
): Promise<Map<string, OutcomeSet>> {
  const sets = new Map<string, OutcomeSet>();
  if (clientIds.length === 0) return sets;
  const rows = await db
    .selectFrom('client_outcomes')
    .select(['client_id', 'outcomes_json', 'quality_thresholds_json', 'version'])
    .where('client_id', 'in', [...new Set(clientIds)])
    .execute();
  for (const r of rows)
    sets.set(r.client_id, {
      outcomes: parse(r.outcomes_json),
      thresholds: parseThresholds(r.quality_thresholds_json),
      version: Number(r.version),
    });
  return sets;
}

export async function outcomeSetOf(db: Kysely<Database>, clientId: string): Promise<OutcomeSet> {
  return (await outcomeSetsOf(db, [clientId])).get(clientId) ?? DEFAULT_OUTCOME_SET;
}

/**
 * Saves a new list; calls are re-classified under the new version (see reclassify.ts). Every call
 * is now classified under an older list, so the progress starts at 0 of all of them: the state
 * reads "running" from this moment, not only once the background run has taken its lease.
 */
export async function saveOutcomes(
  db: Kysely<Database>,
  clientId: string,
  outcomes: Outcome[],
  now: number,
): Promise<OutcomeSet> {
  return saveClassification(db, clientId, { outcomes_json: JSON.stringify(outcomes) }, now);
}

/** Saves new quality thresholds: like new outcomes, they re-classify the client's calls. */
export async function saveQualityThresholds(
  db: Kysely<Database>,
  clientId: string,
  thresholds: Thresholds,
  now: number,
): Promise<OutcomeSet> {
  return saveClassification(db, clientId, { quality_thresholds_json: JSON.stringify(thresholds) }, now);
}

type ClassificationChange = { outcomes_json: string } | { quality_thresholds_json: string };

async function saveClassification(
  db: Kysely<Database>,
  clientId: string,
  change: ClassificationChange,
  now: number,
): Promise<OutcomeSet> {
  const [current, calls] = await Promise.all([
    db.selectFrom('client_outcomes').select('version').where('client_id', '=', clientId).executeTakeFirst(),
    db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow(),
  ]);
  const version = Number(current?.version ?? 0) + 1;
  await db
    .insertInto('client_outcomes')
    // A first save of either keeps the defaults of the other.
    .values({
      client_id: clientId,
      outcomes_json: JSON.stringify(DEFAULT_OUTCOMES),
      ...change,
      version,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({
        ...change,
        version: (eb) => eb('client_outcomes.version', '+', 1),
        updated_at: now,
      }),
    )
    .execute();
  // Every call is to be classified again under the new version: 0 of them so far.
  await requestWalk(db, clientId, 'reclassify', now, Number(calls.n));
  return outcomeSetOf(db, clientId);
}
