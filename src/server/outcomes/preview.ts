/**
 * What an unsaved outcome list would make of the client's recent calls (the Settings editor's
 * "preview before saving"): the latest calls of the last PREVIEW_DAYS days classified in memory,
 * in keyset batches so a large client's transcripts are never all held at once.
 */
import type { Kysely } from 'kysely';
import {
  OTHER_OUTCOME,
  type Outcome,
  type OutcomePreview,
  PREVIEW_DAYS,
  PREVIEW_MAX_CALLS,
} from '../../contract/outcomes';
import type { Database } from '../db/schema';
import { factsOf } from './call-facts';
import { classify } from './classify';

const BATCH = 2_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function previewOutcomes(
  db: Kysely<Database>,
  clientId: string,
  outcomes: readonly Outcome[],
  now: number,
): Promise<OutcomePreview> {
  const counts = new Map<string, number>([...outcomes.map((o) => [o.name, 0] as const), [OTHER_OUTCOME, 0]]);
  let scanned = 0;
  let after: { createdAt: number; id: string } | null = null;
  let more = true;
  while (more && scanned < PREVIEW_MAX_CALLS) {
    let q = db
      .selectFrom('calls')
      .select([
        'id',
        'created_at',
        'status',
        'duration_seconds',
        'answered_by',
        'disposition_tag',
        'summary',
        'transcript',
        'variables_json',
      ])
      .where('client_id', '=', clientId)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '>', now - PREVIEW_DAYS * DAY_MS)
      .where('created_at', '<=', now);
    if (after) {
      const { createdAt, id } = after;
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '<', createdAt),
          eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
        ]),
      );
    }
    const limit = Math.min(BATCH, PREVIEW_MAX_CALLS - scanned);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    for (const row of rows) {
      const name = classify(factsOf(row), outcomes);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    scanned += rows.length;
    more = rows.length === limit;
    const tail = rows[rows.length - 1];
    if (tail) after = { createdAt: Number(tail.created_at), id: tail.id };
  }
  // Sampled only when calls were left over once the cap was reached.
  const last = after;
  const sampled =
    more &&
    last !== null &&
    (await db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', clientId)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .where('created_at', '>', now - PREVIEW_DAYS * DAY_MS)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', last.createdAt),
          eb.and([eb('created_at', '=', last.createdAt), eb('id', '<', last.id)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst()) !== undefined;
  return {
    days: PREVIEW_DAYS,
    scanned,
    sampled,
    counts: [...counts].map(([name, count]) => ({ name, count })),
  };
}
