/**
 * `client_call_days` (issue 16): one row per client and local day with what the agency's
 * portfolio reads: calls, seconds, the client's bill, the provider's price, answered and failed
 * calls. Kept exact by RollupDeltas in the transaction of every write to `calls`, like the other
 * rollups; sample calls (a client trying the dashboard) are no business, so they are left out.
 */
import { type Kysely, sql } from 'kysely';
import type { CallRow, Database } from '../db/schema';
import { localDate } from './time-zones';

export interface DaySums {
  calls: number;
  seconds: number;
  costMicros: number;
  providerMicros: number;
  answered: number;
  failed: number;
}

export type DayContributing = Pick<
  CallRow,
  'client_id' | 'created_at' | 'status' | 'duration_seconds' | 'cost_micros' | 'source'
> & { provider_price_micros?: number | null };

const SEP = '\u0000';
const ANSWERED = new Set(['completed', 'transferred']);

export const emptySums = (): DaySums => ({
  calls: 0,
  seconds: 0,
  costMicros: 0,
  providerMicros: 0,
  answered: 0,
  failed: 0,
});

function add(d: DaySums, call: DayContributing, sign: number, count = 1) {
  d.calls += sign * count;
  d.seconds += sign * call.duration_seconds;
  d.costMicros += sign * call.cost_micros;
  d.providerMicros += sign * Number(call.provider_price_micros ?? 0);
  if (ANSWERED.has(call.status)) d.answered += sign * count;
  if (call.status === 'failed') d.failed += sign * count;
}

/** Collects +/- contributions per (client, local day); `apply` writes one upsert per changed row. */
export class ClientDayDeltas {
  private readonly days = new Map<string, DaySums>();

  add(call: DayContributing, day: string, sign: 1 | -1): void {
    if (call.source === 'sample') return;
    const key = `${day}${SEP}${call.client_id}`;
    let d = this.days.get(key);
    if (!d) {
      d = emptySums();
      this.days.set(key, d);
    }
    add(d, call, sign);
  }

  async apply(db: Kysely<Database>): Promise<void> {
    // Sorted, so concurrent transactions lock the rows in one order.
    const rows = [...this.days.entries()]
      .filter(([, d]) => Object.values(d).some((v) => v !== 0))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.days.clear();
    await upsertDays(
      db,
      rows.map(([key, d]) => {
        const [day, clientId] = key.split(SEP);
        return { day, clientId, sums: d };
      }),
    );
  }
}

async function upsertDays(
  db: Kysely<Database>,
  rows: { day: string; clientId: string; sums: DaySums }[],
): Promise<void> {
  const plus = (column: string) =>
    sql<number>`${sql.ref(`client_call_days.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('client_call_days')
      .values(
        rows.slice(i, i + 200).map(({ day, clientId, sums: d }) => ({
          day,
          client_id: clientId,
          call_count: d.calls,
          total_seconds: d.seconds,
          total_cost_micros: d.costMicros,
          total_provider_micros: d.providerMicros,
          answered_count: d.answered,
          failed_count: d.failed,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['day', 'client_id']).doUpdateSet({
          call_count: plus('call_count'),
          total_seconds: plus('total_seconds'),
          total_cost_micros: plus('total_cost_micros'),
          total_provider_micros: plus('total_provider_micros'),
          answered_count: plus('answered_count'),
          failed_count: plus('failed_count'),
        }),
      )
      .execute();
  }
}

const BUCKET_MS = 15 * 60 * 1000;

/**
 * A client's days recomputed from its calls: when its time zone moves its local days, and once
 * for the calls stored before the table existed. Grouped by 15-minute bucket in the database
 * (no bucket straddles two local days), then folded into local days here.
 */
export async function rebuildClientDays(
  db: Kysely<Database>,
  clientId: string,
  timeZone: string,
): Promise<void> {
  // A literal, not a parameter: PostgreSQL matches the SELECT and GROUP BY expressions by their text.
  const bucket = sql<number>`created_at - (created_at % ${sql.lit(BUCKET_MS)})`;
  const buckets = await db
    .selectFrom('calls')
    .select((eb) => [
      bucket.as('bucket'),
      'status',
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('duration_seconds').as('seconds'),
      eb.fn.sum<number>('cost_micros').as('cost'),
      eb.fn.sum<number>(eb.fn.coalesce('provider_price_micros', sql.lit(0))).as('provider'),
    ])
    .where('client_id', '=', clientId)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1)
    .where('source', '!=', 'sample')
    .groupBy([bucket, 'status'])
    .execute();
  const days = new Map<string, DaySums>();
  for (const b of buckets) {
    const day = localDate(Number(b.bucket), timeZone);
    let d = days.get(day);
    if (!d) {
      d = emptySums();
      days.set(day, d);
    }
    add(
      d,
      {
        client_id: clientId,
        created_at: Number(b.bucket),
        status: b.status,
        duration_seconds: Number(b.seconds),
        cost_micros: Number(b.cost),
        provider_price_micros: Number(b.provider),
        source: 'sync',
      },
      1,
      Number(b.calls),
    );
  }
  await db.deleteFrom('client_call_days').where('client_id', '=', clientId).execute();
  await upsertDays(
    db,
    [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, sums]) => ({ day, clientId, sums })),
  );
}
