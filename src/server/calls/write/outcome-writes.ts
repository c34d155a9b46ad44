/**
 * The outcomes feature's writes to stored calls: re-classified columns (outcomes/reclassify.ts)
 * and the handled mark of Needs attention (markHandled, the calls views' action). Here because the calls
 * store is the only writer of `calls`; what to write is decided by the caller.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { CallRow, Database } from '../../db/schema';

type ClassifiedColumns = Pick<CallRow, 'outcome' | 'outcome_version' | 'attention_reasons'>;

/** Calls classified under another version of the client's list than `version`, or never. */
export const classifiedUnderOther = (version: number) => (eb: ExpressionBuilder<Database, 'calls'>) =>
  eb.or([eb('outcome_version', 'is', null), eb('outcome_version', '!=', version)]);

/**
 * Writes a batch's new classification in one short transaction. A call a delivery classified
 * under this version meanwhile is left as it is.
 */
export async function writeReclassified(
  db: Kysely<Database>,
  clientId: string,
  version: number,
  rows: { id: string; columns: ClassifiedColumns }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { id, columns } of rows) {
      await trx
        .updateTable('calls')
        .set(columns)
        .where('id', '=', id)
        .where('client_id', '=', clientId)
        .where(classifiedUnderOther(version))
        .execute();
    }
  });
}

/** Marks a call of the client handled by `by` at `at`; the first mark is kept. */
export async function writeHandledMark(
  db: Kysely<Database>,
  clientId: string,
  callId: string,
  by: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('calls')
    .set({ handled_at: at, handled_by: by })
    .where('id', '=', callId)
    .where('client_id', '=', clientId)
    .where('handled_at', 'is', null)
    .execute();
}

/** Marks a call handled; the first mark is kept. Null when the client has no such call. */
export async function markHandled(
  db: Kysely<Database>,
  clientId: string,
  callId: string,
  by: string,
  at: number,
) {
  await writeHandledMark(db, clientId, callId, by, at);
  const row = await db
    .selectFrom('calls')
    .select(['handled_at', 'handled_by', 'verified', 'is_proxy'])
    .where('id', '=', callId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (row?.verified !== 1 || row.is_proxy !== 0 || row.handled_at === null) return null;
  return {
    success: true as const,
    handledAt: new Date(Number(row.handled_at)).toISOString(),
    handledBy: row.handled_by ?? by,
  };
}
