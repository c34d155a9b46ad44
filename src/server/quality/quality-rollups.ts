/**
 * The quality rollups (quality_rollups_daily): per client and local day, how many calls had each
 * grid value of each metric, plus calls per precision (`precision.<name>`, value 0). Kept exact in
 * the transaction of every write to `calls`, from RollupDeltas (calls/write/rollups.ts), which
 * decides which calls count (not proxies, not unconfirmed) and their local day.
 */
import { type Kysely, sql } from 'kysely';
import { QUALITY_METRICS } from '../../contract/quality';
import type { Database } from '../db/schema';
import { localDate } from '../time/time-zones';
import { storedQuality } from './call-quality';
import { gridValue, metricValues } from './grid';

const SEP = '\u0000';

export const precisionMetric = (precision: string) => `precision.${precision}`;

/** Collects ± contributions and writes one upsert per touched row, in key order (no deadlocks). */
export class QualityRollupDeltas {
  private readonly counts = new Map<string, number>();

  add(clientId: string, localDay: string, qualityJson: string | null, sign: 1 | -1): void {
    const quality = storedQuality(qualityJson);
    if (!quality) return;
    const key = (metric: string, value: number) =>
      `${clientId}${SEP}${localDay}${SEP}${metric}${SEP}${value}`;
    const bump = (k: string) => this.counts.set(k, (this.counts.get(k) ?? 0) + sign);
    bump(key(precisionMetric(quality.precision), 0));
    const values = metricValues(quality);
    for (const metric of QUALITY_METRICS) {
      const value = values[metric];
      if (value !== null) bump(key(metric, gridValue(metric, value)));
    }
  }

  async apply(db: Kysely<Database>): Promise<void> {
    const rows = [...this.counts.entries()]
      .filter(([, n]) => n !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, n]) => {
        const [client_id = '', day = '', metric = '', value = '0'] = key.split(SEP);
        return { client_id, day, metric, value: Number(value), call_count: n };
      });
    this.counts.clear();
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('quality_rollups_daily')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(['client_id', 'day', 'metric', 'value']).doUpdateSet({
            call_count: sql<number>`quality_rollups_daily.call_count + excluded.call_count`,
          }),
        )
        .execute();
    }
  }
}

/** Local days moved (a new time zone): recount a client's quality rollups from its calls. */
export async function rebuildQualityRollups(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
  await db.deleteFrom('quality_rollups_daily').where('client_id', '=', clientId).execute();
  let after = '';
  for (;;) {
    const page = await db
      .selectFrom('calls')
      .select(['id', 'created_at', 'quality_json'])
      .where('client_id', '=', clientId)
      .where('id', '>', after)
      .where('quality_json', 'is not', null)
      .where('is_proxy', '=', 0)
      .where('verified', '=', 1)
      .orderBy('id')
      .limit(2000)
      .execute();
    if (page.length === 0) return;
    const deltas = new QualityRollupDeltas();
    for (const call of page) deltas.add(clientId, localDate(call.created_at, timeZone), call.quality_json, 1);
    await deltas.apply(db);
    after = page[page.length - 1]?.id ?? after;
  }
}
