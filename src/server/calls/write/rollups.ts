/**
 * Call rollups at two levels, kept exact in the same transaction as every write to `calls`:
 * - `call_rollups`: per client, per 15-minute bucket (UTC), per status and pathway;
 * - `call_rollups_daily`: the same sums per local calendar day of the client's time zone.
 * Stats and charts read days for the bulk of a window and 15-minute buckets (then raw calls) only
 * at its edges, so their cost does not grow with the number of calls. 15 minutes because every
 * real time-zone offset is a multiple of it: a bucket never straddles two local days.
 */
import { type Kysely, sql } from 'kysely';
import { ClientDayDeltas, type DayContributing, rebuildClientDays } from '../../agency/client-days';
import type { ClientChangeListener } from '../../clients/client-changes';
import { isPostgres } from '../../db/dialect';
import type { CallRow, Database } from '../../db/schema';
import { QualityRollupDeltas, rebuildQualityRollups } from '../../quality/quality-rollups';
import { localDate } from '../../time/time-zones';

export const BUCKET_MS = 15 * 60 * 1000;

export const bucketOf = (ms: number) => Math.floor(ms / BUCKET_MS) * BUCKET_MS;

interface Sums {
  count: number;
  seconds: number;
  costMicros: number;
}

type Contributing = Pick<
  CallRow,
  | 'client_id'
  | 'created_at'
  | 'status'
  | 'pathway'
  | 'duration_seconds'
  | 'cost_micros'
  | 'is_proxy'
  | 'verified'
  | 'outcome'
  | 'quality_json'
> &
  DayContributing;

const SEP = '\u0000';

function addTo(map: Map<string, Sums>, key: string, call: Contributing, sign: 1 | -1) {
  let d = map.get(key);
  if (!d) {
    d = { count: 0, seconds: 0, costMicros: 0 };
    map.set(key, d);
  }
  d.count += sign;
  d.seconds += sign * call.duration_seconds;
  d.costMicros += sign * call.cost_micros;
}

/** Rows with a net change, sorted so concurrent transactions lock rollup rows in one order. */
function changed(map: Map<string, Sums>): [string[], Sums][] {
  return [...map.entries()]
    .filter(([, d]) => d.count !== 0 || d.seconds !== 0 || d.costMicros !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, d]) => [key.split(SEP), d]);
}

type RollupTable =
  | 'call_rollups'
  | 'call_rollups_daily'
  | 'call_outcome_rollups'
  | 'call_outcome_rollups_daily';

/** The upsert adding these sums (at most 200 rows) onto a rollup table's rows. */
function upsertSums(db: Kysely<Database>, table: RollupTable, rows: [string[], Sums][]) {
  const period = table === 'call_rollups' || table === 'call_outcome_rollups' ? 'bucket_start' : 'day';
  // Status rollups are keyed by status, outcome rollups by outcome; the rest is the same.
  const kind = table.startsWith('call_outcome') ? 'outcome' : 'status';
  const plus = (column: string) =>
    sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  const values = rows.map(([[clientId, when, key, pathway], d]) => ({
    client_id: clientId,
    [period]: period === 'bucket_start' ? Number(when) : when,
    [kind]: key,
    pathway,
    call_count: d.count,
    total_seconds: d.seconds,
    total_cost_micros: d.costMicros,
  }));
  return (
    db
      .insertInto(table)
      // The two tables differ only in the period column, which is set just above.
      .values(values as never)
      .onConflict((oc) =>
        // The tables differ in one column; Kysely cannot name a column across the union
        oc.columns(['client_id', period, kind, 'pathway'] as never).doUpdateSet({
          call_count: plus('call_count'),
          total_seconds: plus('total_seconds'),
          total_cost_micros: plus('total_cost_micros'),
        }),
      )
  );
}

/** Adds sums onto rollup rows, creating the ones that do not exist yet. */
async function addSums(db: Kysely<Database>, table: RollupTable, rows: [string[], Sums][]): Promise<void> {
  for (const chunk of chunks(rows, 200)) await upsertSums(db, table, chunk).execute();
}

/**
 * The four rollup tables' upserts of one write. PostgreSQL runs them as one statement (each a
 * data-modifying WITH query; they touch different tables, so none sees another's rows): three
 * round trips fewer per batch of webhooks. SQLite has no such statement, and its
 * statements cost no round trip.
 */
async function addAllSums(db: Kysely<Database>, tables: [RollupTable, [string[], Sums][]][]): Promise<void> {
  const small = tables.filter(([, rows]) => rows.length > 0 && rows.length <= 200);
  if (!isPostgres(db) || small.length < 2) {
    for (const [table, rows] of tables) await addSums(db, table, rows);
    return;
  }
  const [last, ...first] = [...small].reverse();
  const withs = first.map(([table, rows], i) => sql`${sql.raw(`w${i}`)} as (${upsertSums(db, table, rows)})`);
  await sql`with ${sql.join(withs)} ${upsertSums(db, last[0], last[1])}`.execute(db);
  for (const [table, rows] of tables) if (rows.length > 200) await addSums(db, table, rows);
}

/** Collects +/- contributions of calls (of one or many clients) and writes one upsert per touched row. */
export class RollupDeltas {
  private readonly buckets = new Map<string, Sums>();
  private readonly days = new Map<string, Sums>();
  private readonly outcomeBuckets = new Map<string, Sums>();
  private readonly outcomeDays = new Map<string, Sums>();
  private readonly clientDays = new ClientDayDeltas();
  private readonly quality = new QualityRollupDeltas();

  /** `timeZoneOf` names each client's time zone, which decides its local days. */
  constructor(private readonly timeZoneOf: (clientId: string) => string) {}

  static forClient(timeZone: string): RollupDeltas {
    return new RollupDeltas(() => timeZone);
  }

  add(call: Contributing, sign: 1 | -1): void {
    // Warm-transfer proxy legs would count one conversation twice (DESIGN §7); unconfirmed
    // calls count once the provider confirms them.
    if (call.is_proxy || call.verified === 0) return;
    const bucket = `${call.client_id}${SEP}${bucketOf(call.created_at)}${SEP}`;
    const localDay = localDate(call.created_at, this.timeZoneOf(call.client_id));
    const day = `${call.client_id}${SEP}${localDay}${SEP}`;
    const tail = `${call.status}${SEP}${call.pathway}`;
    addTo(this.buckets, `${bucket}${tail}`, call, sign);
    addTo(this.days, `${day}${tail}`, call, sign);
    this.clientDays.add(call, localDay, sign);
    this.quality.add(call.client_id, localDay, call.quality_json, sign);
    if (call.outcome === null || call.outcome === undefined) return;
    const outcomeTail = `${call.outcome}${SEP}${call.pathway}`;
    addTo(this.outcomeBuckets, `${bucket}${outcomeTail}`, call, sign);
    addTo(this.outcomeDays, `${day}${outcomeTail}`, call, sign);
  }

  async apply(db: Kysely<Database>): Promise<void> {
    await addAllSums(db, [
      ['call_rollups', changed(this.buckets)],
      ['call_rollups_daily', changed(this.days)],
      ['call_outcome_rollups', changed(this.outcomeBuckets)],
      ['call_outcome_rollups_daily', changed(this.outcomeDays)],
    ]);
    await this.clientDays.apply(db);
    await this.quality.apply(db);
    this.buckets.clear();
    this.days.clear();
    this.outcomeBuckets.clear();
    this.outcomeDays.clear();
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Local days move when a client's time zone changes: recompute its daily rollups (status and
 * outcome from the 15-minute ones, the client's days and quality from its calls) (exact, since no bucket straddles two local days). Call inside
 * the transaction that changes the time zone.
 */
export async function rebuildDailyRollups(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
  const statusRows = await db
    .selectFrom('call_rollups')
    .selectAll()
    .where('client_id', '=', clientId)
    .execute();
  await replaceDays(
    db,
    'call_rollups_daily',
    clientId,
    timeZone,
    statusRows.map((r) => ({ ...r, key: r.status })),
  );
  const outcomeRows = await db
    .selectFrom('call_outcome_rollups')
    .selectAll()
    .where('client_id', '=', clientId)
    .execute();
  await replaceDays(
    db,
    'call_outcome_rollups_daily',
    clientId,
    timeZone,
    outcomeRows.map((r) => ({ ...r, key: r.outcome })),
  );
  await rebuildClientDays(db, clientId, timeZone);
  await rebuildQualityRollups(db, clientId, timeZone);
}

interface BucketRow {
  bucket_start: number;
  key: string;
  pathway: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
}

async function replaceDays(
  db: Kysely<Database>,
  table: 'call_rollups_daily' | 'call_outcome_rollups_daily',
  clientId: string,
  timeZone: string,
  rows: BucketRow[],
): Promise<void> {
  const days = new Map<string, Sums>();
  for (const r of rows) {
    const key = `${clientId}${SEP}${localDate(Number(r.bucket_start), timeZone)}${SEP}${r.key}${SEP}${r.pathway}`;
    const d = days.get(key) ?? { count: 0, seconds: 0, costMicros: 0 };
    d.count += Number(r.call_count);
    d.seconds += Number(r.total_seconds);
    d.costMicros += Number(r.total_cost_micros);
    days.set(key, d);
  }
  await db.deleteFrom(table).where('client_id', '=', clientId).execute();
  await addSums(db, table, changed(days));
}

/**
 * A client's outcome sums recomputed from its calls, after its calls were re-classified: one
 * grouped INSERT … SELECT for the 15-minute buckets, then the days from those.
 */
export async function rebuildOutcomeRollups(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
  await db.deleteFrom('call_outcome_rollups').where('client_id', '=', clientId).execute();
  // A literal, not a parameter: PostgreSQL matches the SELECT and GROUP BY expressions by their text.
  const bucket = sql<number>`created_at - (created_at % ${sql.lit(BUCKET_MS)})`;
  await db
    .insertInto('call_outcome_rollups')
    .columns([
      'client_id',
      'bucket_start',
      'outcome',
      'pathway',
      'call_count',
      'total_seconds',
      'total_cost_micros',
    ])
    .expression(
      db
        .selectFrom('calls')
        .select((eb) => [
          'client_id',
          bucket.as('bucket_start'),
          sql<string>`outcome`.as('outcome'),
          'pathway',
          eb.fn.countAll<number>().as('call_count'),
          eb.fn.sum<number>('duration_seconds').as('total_seconds'),
          eb.fn.sum<number>('cost_micros').as('total_cost_micros'),
        ])
        .where('client_id', '=', clientId)
        .where('is_proxy', '=', 0)
        .where('verified', '=', 1)
        .where('outcome', 'is not', null)
        .groupBy(['client_id', bucket, 'outcome', 'pathway']),
    )
    .execute();
  const rows = await db
    .selectFrom('call_outcome_rollups')
    .selectAll()
    .where('client_id', '=', clientId)
    .execute();
  await replaceDays(
    db,
    'call_outcome_rollups_daily',
    clientId,
    timeZone,
    rows.map((r) => ({ ...r, key: r.outcome })),
  );
}

/** Local days move with a client's time zone (which rebuilds the agency's days too). */
export const dailyRollupsListener = {
  timeZoneChanged: rebuildDailyRollups,
} satisfies ClientChangeListener;
