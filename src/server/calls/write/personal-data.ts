/**
 * The calls store's writes for callers' personal data: texts redacted again, what
 * retention removes, and calls erased. None of them changes a number the dashboard counts: the
 * rollups and running totals keep every call they counted (after-write is not run), so totals,
 * charts, usage and invoices stay as they were; only the personal data goes. A call removed here
 * is also listed in `deleted_calls`, so no later sync or delivery brings it back.
 *
 * The search index follows by itself: it is kept from `transcript` and `summary` by the database
 * (triggers on SQLite, the tsvector column's trigger on PostgreSQL, migrations 011 to 019).
 */
import { setTimeout } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { CallRow, Database } from '../../db/schema';

/** The columns of a call that hold what callers said. */
export const PERSONAL_TEXT_COLUMNS = [
  'transcript',
  'summary',
  'error_message',
  'analysis_json',
  'variables_json',
  'raw_payload',
] as const satisfies readonly (keyof CallRow)[];
export type PersonalTexts = Pick<CallRow, (typeof PERSONAL_TEXT_COLUMNS)[number]>;

/** Writes redacted texts over a client's calls (one short transaction for the batch). */
export async function rewriteCallTexts(
  db: Kysely<Database>,
  clientId: string,
  rows: ({ id: string } & PersonalTexts)[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { id, ...texts } of rows) {
      await trx
        .updateTable('calls')
        .set(texts)
        .where('id', '=', id)
        .where('client_id', '=', clientId)
        .execute();
    }
  });
}

interface Window {
  /** Calls created at or after this (the cut-off already applied), or all older ones when null. */
  from: number | null;
  before: number;
}

/** Which of a client's calls still hold texts retention removes: the transcript's columns set. */
export const holdsTexts = (eb: import('kysely').ExpressionBuilder<Database, 'calls'>) =>
  eb.or([
    eb('transcript', 'is not', null),
    eb('summary', 'is not', null),
    eb('analysis_json', 'is not', null),
    eb('variables_json', 'is not', null),
    eb('raw_payload', 'is not', null),
  ]);

/** Transcripts, summaries, analysis, variables and stored payloads of these calls of a client. */
export async function clearTranscripts(
  db: Kysely<Database>,
  clientId: string,
  ids: string[],
  now: number,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('calls')
    .set({
      transcript: null,
      summary: null,
      analysis_json: null,
      variables_json: null,
      raw_payload: null,
      transcript_cleared_at: now,
    })
    .where('client_id', '=', clientId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Recording links of these calls of a client: they stop working. */
export async function clearRecordings(
  db: Kysely<Database>,
  clientId: string,
  ids: string[],
  now: number,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('calls')
    .set({ recording_url: null, recording_cleared_at: now })
    .where('client_id', '=', clientId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Removes calls, keeping every total they counted; each is remembered in `deleted_calls` so the
 * provider's copy never comes back. Answers the removed rows' ids and provider ids.
 */
export async function removeCallsKeepingTotals(
  db: Kysely<Database>,
  clientId: string,
  select: { ids: string[] } | Window,
  now: number,
): Promise<{ id: string; provider_call_id: string }[]> {
  return db.transaction().execute(async (trx) => {
    let q = trx.deleteFrom('calls').where('client_id', '=', clientId);
    if ('ids' in select) {
      if (select.ids.length === 0) return [];
      q = q.where('id', 'in', select.ids);
    } else {
      q = q.where('created_at', '<', select.before);
      if (select.from !== null) q = q.where('created_at', '>=', select.from);
    }
    const rows = await q.returning(['id', 'provider_call_id']).execute();
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('deleted_calls')
        .values(
          rows
            .slice(i, i + 500)
            .map((r) => ({ client_id: clientId, provider_call_id: r.provider_call_id, deleted_at: now })),
        )
        .onConflict((oc) => oc.columns(['client_id', 'provider_call_id']).doNothing())
        .execute();
    }
    return rows;
  });
}

/** Pages of the full-text index one merge step writes: a step holds the connection (tens of ms). */
const MERGE_STEP_PAGES = 50;
/** Erasures scrubbing now, per database handle: the last to finish puts the settings back. */
const scrubbing = new WeakMap<Kysely<Database>, number>();

/**
 * Runs an erasure's deletes so that the erased words leave the database's files, not only its
 * tables (SQLite). Three copies outlive a plain delete there:
 * - pages freed whole (a long transcript's overflow pages, the index's old segments) keep their
 *   bytes: `secure_delete = FAST` zeroes only the pages a write touches anyway, so ON meanwhile;
 * - the full-text index is contentless with deletes (migration 019): a deleted call is only a
 *   tombstone, its words stay in the index's segments until they are merged, and FTS5's own
 *   `secure-delete` cannot apply to such a table (it does not know a deleted row's words). So the
 *   segments are merged into one, in steps of MERGE_STEP_PAGES with the event loop let turn
 *   between them (each step a short transaction), which drops every tombstoned entry. It rewrites
 *   the whole index once per erasure: erasures are rare and capped, and it is the only way to get
 *   the words out (bench/RESULTS.md, lab notes, for its cost);
 * - the write-ahead log holds the pages as they were before: a TRUNCATE checkpoint writes the
 *   scrubbed pages into the file and empties the log.
 * PostgreSQL has no such copies to scrub by hand: a deleted row's tuple is dead, never read again
 * and reclaimed by (auto)vacuum, its index entries with it, and the server recycles its own WAL
 * segments; neither queries nor pg_dump (a backup) ever see them.
 */
export async function withErasedTextScrubbed<T>(
  db: Kysely<Database>,
  work: () => Promise<T>,
  /** Whether the work removed indexed texts (calls): the merge is for them alone. */
  removedCalls: (result: T) => boolean = () => true,
): Promise<T> {
  if (isPostgres(db)) return work();
  scrubbing.set(db, (scrubbing.get(db) ?? 0) + 1);
  await sql`pragma secure_delete = on`.execute(db);
  try {
    const result = await work();
    if (removedCalls(result)) await mergeSearchIndex(db);
    return result;
  } finally {
    const left = (scrubbing.get(db) ?? 1) - 1;
    scrubbing.set(db, left);
    if (left === 0) {
      await sql`pragma secure_delete = fast`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    }
  }
}

/** Merges the full-text index's segments into one, a step at a time, until a step finds no work. */
async function mergeSearchIndex(db: Kysely<Database>): Promise<void> {
  for (;;) {
    // FTS5 says a merge step did work when the total of changes grew by 2 or more; read in the
    // step's own transaction so that no other write on the connection counts.
    const changed = await db.transaction().execute(async (trx) => {
      const total = async () =>
        Number((await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0].n);
      const before = await total();
      await sql`insert into calls_fts(calls_fts, rank) values ('merge', ${-MERGE_STEP_PAGES})`.execute(trx);
      return (await total()) - before;
    });
    if (changed < 2) return;
    await setTimeout(0);
  }
}
