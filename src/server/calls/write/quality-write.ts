/**
 * Writes measured quality onto stored calls (the quality backfill), with what follows from it
 * in the same transaction: the call is classified again (its thresholds may put it in Needs
 * attention) and its rollups move (after-write.ts `remeasured`). Rows another write changed or
 * measured meanwhile are left as they are.
 */
import type { Kysely } from 'kysely';
import type { QualityColumns } from '../../call-rows/quality-columns';
import type { CallRow, Database } from '../../db/schema';
import { AfterCallsWrite } from './after-write';

export async function writeMeasuredQuality(
  db: Kysely<Database>,
  clientId: string,
  measured: { id: string; columns: QualityColumns }[],
  clock: () => number,
): Promise<void> {
  if (measured.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', clientId)
      .where(
        'id',
        'in',
        measured.map((m) => m.id),
      )
      .where('quality_json', 'is', null)
      .orderBy('id')
      .execute();
    const byId = new Map(measured.map((m) => [m.id, m.columns]));
    const after = await AfterCallsWrite.forCalls(trx, [{ id: clientId }]);
    // selectAll on `calls` reads every CallRow column
    for (const before of rows as CallRow[]) {
      const columns = byId.get(before.id);
      if (!columns) continue;
      const next = after.classify({ ...before, ...columns });
      await trx
        .updateTable('calls')
        .set({
          ...columns,
          outcome: next.outcome,
          outcome_version: next.outcome_version,
          attention_reasons: next.attention_reasons,
        })
        .where('id', '=', before.id)
        .execute();
      after.remeasured(before, next);
    }
    await after.run(trx, clock);
  });
}
