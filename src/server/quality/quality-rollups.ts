/**
 * The quality rollups (quality_rollups_daily): per client, local day and metric, a histogram of
 * the calls' grid values (quality/grid.ts), plus calls per precision (`precision.<name>`, one value
 * 0). One row per day and metric, so a month's summary reads ~330 rows whatever the calls.
 *
 * Kept exact in the transaction of every write to `calls`, from RollupDeltas (calls/write/
 * rollups.ts), which decides which calls count (not proxies, not unconfirmed) and their local
 * day. A histogram cannot be added to in SQL on both databases, so a write reads the rows it
 * touches and writes them back merged: the rows are created first (insert … on conflict do
 * nothing), then locked in key order (PostgreSQL `for update`; SQLite has one writer), so two
 * writers never lose each other's counts nor deadlock.
 */
import { type Kysely, sql } from 'kysely';
import { QUALITY_METRICS } from '../../contract/quality';
import { metricValues, storedQuality } from '../call-rows/quality-columns';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { localDate, shiftDate } from '../time/time-zones';
import { gridValue } from './grid';
import { addToHistogram, type Histogram } from './histogram';

const SEP = '\u0000';

export const precisionMetric = (precision: string) => `precision.${precision}`;

/**
 * Days before this one (UTC calendar) are settled: any change to a client's rollups of one of them
 * bumps its `quality_rollup_versions` row in the same transaction, so summaries may keep those
 * days merged (settled-histograms.ts). Calls land on today, so ordinary writes bump nothing.
 */
export function bumpingBefore(nowMs: number): string {
  return shiftDate(localDate(nowMs, 'UTC'), -1);
}

async function bumpVersions(db: Kysely<Database>, clientIds: Iterable<string>): Promise<void> {
  for (const client_id of clientIds)
    await db
      .insertInto('quality_rollup_versions')
      .values({ client_id, version: 1 })
      .onConflict((oc) =>
        oc
          .column('client_id')
          .doUpdateSet((eb) => ({ version: eb('quality_rollup_versions.version', '+', 1) })),
      )
      .execute();
}

/** Adds a stored histogram into `into`; an unreadable one adds nothing (never a 500). */
export function addStoredHistogram(into: Histogram, json: string): Histogram {
  let pairs: unknown;
  try {
    pairs = JSON.parse(json);
  } catch {
    return into;
  }
  if (!Array.isArray(pairs)) return into;
  for (const pair of pairs)
    if (Array.isArray(pair) && typeof pair[0] === 'number' && typeof pair[1] === 'number')
      into.set(pair[0], (into.get(pair[0]) ?? 0) + pair[1]);
  return into;
}

function histogramJson(histogram: Histogram): { json: string; calls: number } {
  const pairs = [...histogram.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  return { json: JSON.stringify(pairs), calls: pairs.reduce((sum, [, n]) => sum + n, 0) };
}

/** Collects ± contributions per (client, day, metric) and merges them into the stored rows. */
export class QualityRollupDeltas {
  private readonly deltas = new Map<string, Histogram>();

  add(clientId: string, localDay: string, qualityJson: string | null, sign: 1 | -1): void {
    const quality = storedQuality(qualityJson);
    if (!quality) return;
    const bump = (metric: string, value: number) => {
      const key = `${clientId}${SEP}${localDay}${SEP}${metric}`;
      const histogram = this.deltas.get(key) ?? new Map<number, number>();
      addToHistogram(histogram, value, sign);
      this.deltas.set(key, histogram);
    };
    bump(precisionMetric(quality.precision), 0);
    const values = metricValues(quality);
    for (const metric of QUALITY_METRICS) {
      const value = values[metric];
      if (value !== null) bump(metric, gridValue(metric, value));
    }
  }

  async apply(db: Kysely<Database>): Promise<void> {
    const changed = [...this.deltas.entries()]
      .filter(([, h]) => [...h.values()].some((n) => n !== 0))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, delta]) => {
        const [client_id = '', day = '', metric = ''] = key.split(SEP);
        return { client_id, day, metric, delta };
      });
    this.deltas.clear();
    const settledBefore = bumpingBefore(Date.now());
    await bumpVersions(db, new Set(changed.filter((c) => c.day < settledBefore).map((c) => c.client_id)));
    for (let i = 0; i < changed.length; i += 200) await mergeRows(db, changed.slice(i, i + 200));
  }
}

type Change = { client_id: string; day: string; metric: string; delta: Histogram };

async function mergeRows(db: Kysely<Database>, rows: Change[]): Promise<void> {
  await db
    .insertInto('quality_rollups_daily')
    .values(
      rows.map(({ client_id, day, metric }) => ({
        client_id,
        day,
        metric,
        histogram_json: '[]',
        call_count: 0,
      })),
    )
    .onConflict((oc) => oc.columns(['client_id', 'day', 'metric']).doNothing())
    .execute();
  let stored = db
    .selectFrom('quality_rollups_daily')
    .select(['client_id', 'day', 'metric', 'histogram_json'])
    .where((eb) =>
      eb.or(
        rows.map((r) =>
          eb.and([eb('client_id', '=', r.client_id), eb('day', '=', r.day), eb('metric', '=', r.metric)]),
        ),
      ),
    )
    .orderBy('client_id')
    .orderBy('day')
    .orderBy('metric');
  if (isPostgres(db)) stored = stored.forUpdate();
  const current = new Map(
    (await stored.execute()).map((r) => [`${r.client_id}${SEP}${r.day}${SEP}${r.metric}`, r.histogram_json]),
  );
  // Every merged row back in one statement (VALUES columns are column1… on both databases).
  const merged = rows.map((r) => {
    const key = `${r.client_id}${SEP}${r.day}${SEP}${r.metric}`;
    const histogram = addStoredHistogram(new Map(), current.get(key) ?? '[]');
    for (const [value, n] of r.delta) addToHistogram(histogram, value, n);
    const { json, calls } = histogramJson(histogram);
    return sql`(${r.client_id}, ${r.day}, ${r.metric}, ${json}, cast(${calls} as integer))`;
  });
  await sql`update quality_rollups_daily
    set histogram_json = v.column4, call_count = v.column5
    from (values ${sql.join(merged)}) as v
    where quality_rollups_daily.client_id = v.column1
      and quality_rollups_daily.day = v.column2
      and quality_rollups_daily.metric = v.column3`.execute(db);
}

/** Local days moved (a new time zone): recount a client's quality rollups from its calls. */
export async function rebuildQualityRollups(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
  await db.deleteFrom('quality_rollups_daily').where('client_id', '=', clientId).execute();
  await bumpVersions(db, [clientId]);
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

/** Each metric's histogram over local days from–to, per client (null: every client). */
export async function readHistograms(
  db: Kysely<Database>,
  clientIds: string[] | null,
  from: string,
  to: string,
  metrics?: string[],
): Promise<Map<string, Map<string, Histogram>>> {
  const out = new Map<string, Map<string, Histogram>>();
  if (clientIds !== null && clientIds.length === 0) return out;
  const rows = await db
    .selectFrom('quality_rollups_daily')
    .select(['client_id', 'metric', 'histogram_json'])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .$if(clientIds !== null, (q) => q.where('client_id', 'in', clientIds ?? []))
    .$if(metrics !== undefined, (q) => q.where('metric', 'in', metrics ?? []))
    .execute();
  for (const r of rows) {
    const byMetric = out.get(r.client_id) ?? new Map<string, Histogram>();
    byMetric.set(r.metric, addStoredHistogram(byMetric.get(r.metric) ?? new Map(), r.histogram_json));
    out.set(r.client_id, byMetric);
  }
  return out;
}
