/**
 * The calls store's writes for callers' personal data (issue 38): texts redacted again, what
 * retention removes, and calls erased. None of them changes a number the dashboard counts: the
 * rollups and running totals keep every call they counted (after-write is not run), so totals,
 * charts, usage and invoices stay as they were; only the personal data goes. A call removed here
 * is also listed in `deleted_calls`, so no later sync or delivery brings it back.
 *
 * The search index follows by itself: it is kept from `transcript` and `summary` by the database
 * (triggers on SQLite, the tsvector column's trigger on PostgreSQL, migrations 011 to 019).
 */
import type { Kysely } from 'kysely';
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
