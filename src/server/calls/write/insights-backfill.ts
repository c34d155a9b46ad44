/**
 * Fills in a call's insights (summary, answered by, …, provider price) from the payload stored
 * with it, for calls stored before those columns existed. Reads the payload through the same
 * mapping as a live delivery, so a backfilled call reads as if it had just arrived.
 */
import type { Kysely } from 'kysely';
import { blandCallSchema, mapBlandInsights } from '../../providers/voice/bland-payload';
import type { Database } from '../../db/schema';
import { insightColumns } from './insight-columns';

const BATCH = 500;

/** Migrations see an untyped database; the app passes its own. */
export async function backfillCallInsights(anyDb: Kysely<unknown> | Kysely<Database>): Promise<number> {
  const db = anyDb as unknown as Kysely<Database>;
  let after = '';
  let filled = 0;
  for (;;) {
    const rows = await db
      .selectFrom('calls')
      .select(['id', 'raw_payload'])
      .where('id', '>', after)
      .where('raw_payload', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return filled;
    after = rows[rows.length - 1].id;
    for (const row of rows) {
      let json: unknown;
      try {
        json = JSON.parse(row.raw_payload ?? '');
      } catch {
        continue;
      }
      const parsed = blandCallSchema.safeParse(json);
      if (!parsed.success) continue;
      const price = parsed.data.price;
      const columns = insightColumns(mapBlandInsights(parsed.data), price ?? null);
      if (Object.values(columns).every((v) => v === null)) continue;
      await db.updateTable('calls').set(columns).where('id', '=', row.id).execute();
      filled++;
    }
  }
}
