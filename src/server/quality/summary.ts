/**
 * A client's quality over a period of local days against the period before (GET …/quality/summary):
 * medians and p90s from the daily rollups (quality-rollups.ts), so its cost is days × values, not
 * calls; the worst calls from the top of the partial indexes on the quality columns.
 */
import { type Kysely, sql } from 'kysely';
import { DATE_RANGE_DAYS } from '../../contract/common';
import {
  type MetricFigures,
  QUALITY_METRICS,
  type QualityMetric,
  type QualityPeriod,
  type QualitySummary,
  type QualitySummaryQuery,
  TIMING_PRECISIONS,
  type TimingPrecision,
  WORST_METRICS,
  type WorstCall,
  type WorstMetric,
} from '../../contract/quality';
import { storedQuality } from '../call-rows/quality-columns';
import type { Database } from '../db/schema';
import { localDate, shiftDate, startOfLocalDay } from '../time/time-zones';
import { shownValue } from './grid';
import { type Histogram, histogramCalls, histogramPercentiles } from './histogram';
import { precisionMetric } from './quality-rollups';
import { periodHistograms, type SettledHistograms } from './settled-histograms';

/** Worst calls listed per metric. */
export const WORST_PER_METRIC = 5;

const WORST_COLUMN = {
  responseLatencyP90Ms: 'quality_latency_p90_ms',
  interruptionsCaller: 'quality_interruptions_caller',
  deadAirLongestMs: 'quality_dead_air_ms',
} as const satisfies Record<WorstMetric, string>;

interface Days {
  from: string;
  to: string;
}

/** The period asked for, and the as-long one before it. */
export function periodsOf(query: QualitySummaryQuery, now: number, timeZone: string): [Days, Days] {
  const to = query.to ?? localDate(now, timeZone);
  const from = query.from ?? shiftDate(to, -(DATE_RANGE_DAYS[query.dateRange] - 1));
  const length = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return [
    { from, to },
    { from: shiftDate(from, -length), to: shiftDate(from, -1) },
  ];
}

function figuresOf(metric: QualityMetric, histogram: Histogram | undefined): MetricFigures {
  const [median = null, p90 = null] = histogramPercentiles(histogram, [0.5, 0.9]).map((grid) =>
    grid === null ? null : shownValue(metric, grid),
  );
  return { median, p90, calls: histogramCalls(histogram) };
}

interface PeriodCounts {
  metrics: Map<string, Histogram>;
}

function periodOf(days: Days, counts: PeriodCounts): QualityPeriod {
  // Filled for every QualityMetric by the loop below
  const metrics = {} as Record<QualityMetric, MetricFigures>;
  for (const metric of QUALITY_METRICS) metrics[metric] = figuresOf(metric, counts.metrics.get(metric));
  let calls = 0;
  for (const precision of TIMING_PRECISIONS)
    calls += histogramCalls(counts.metrics.get(precisionMetric(precision)));
  return { ...days, calls, metrics };
}

function atMsOf(metric: WorstMetric, json: string | null): number | null {
  const moments = storedQuality(json)?.moments ?? [];
  const kind =
    metric === 'interruptionsCaller'
      ? 'caller_interrupted'
      : metric === 'deadAirLongestMs'
        ? 'dead_air'
        : 'slow_turn';
  const matching = moments.filter((m) => m.kind === kind);
  if (matching.length === 0) return null;
  // The first interruption; the longest gap or slowest turn.
  if (kind === 'caller_interrupted') return matching[0]?.atMs ?? null;
  return matching.reduce((a, b) => (b.durationMs > a.durationMs ? b : a)).atMs;
}

async function worstCalls(
  db: Kysely<Database>,
  clientId: string,
  fromMs: number,
  toMs: number,
): Promise<WorstCall[]> {
  const lists = await Promise.all(
    WORST_METRICS.map(async (metric) => {
      const column = WORST_COLUMN[metric];
      const rows = await db
        .selectFrom('calls')
        .select(['id', 'created_at', 'quality_json', sql<number>`${sql.ref(column)}`.as('value')])
        .where('client_id', '=', clientId)
        .where(column, '>', 0)
        // `+created_at`: the period is not an index condition, so both databases walk the figure's
        // partial index from the top and stop after the first few in the period, instead of
        // sorting every call of the period (626 ms for a month of the 1M-call client on SQLite).
        .where(sql<number>`+calls.created_at`, '>=', fromMs)
        .where(sql<number>`+calls.created_at`, '<', toMs)
        .where('verified', '=', 1)
        .where('is_proxy', '=', 0)
        .orderBy(column, 'desc')
        .orderBy('created_at', 'desc')
        .limit(WORST_PER_METRIC)
        .execute();
      return rows.map(
        (r): WorstCall => ({
          callId: r.id,
          metric,
          value: Number(r.value),
          atMs: atMsOf(metric, r.quality_json),
          createdAt: new Date(Number(r.created_at)).toISOString(),
        }),
      );
    }),
  );
  return lists.flat();
}

export async function qualitySummary(
  deps: { db: Kysely<Database>; settledHistograms: SettledHistograms },
  client: { id: string; timezone: string },
  query: QualitySummaryQuery,
  now: number,
): Promise<QualitySummary> {
  const [current, previous] = periodsOf(query, now, client.timezone);
  const [[now_, before], worst] = await Promise.all([
    periodHistograms(deps, client.id, [current, previous]).then((periods) =>
      periods.map((metrics): PeriodCounts => ({ metrics })),
    ),
    worstCalls(
      deps.db,
      client.id,
      startOfLocalDay(current.from, client.timezone),
      startOfLocalDay(shiftDate(current.to, 1), client.timezone),
    ),
  ]);
  // Filled for every TimingPrecision by the loop below
  const precision = {} as Record<TimingPrecision, number>;
  for (const p of TIMING_PRECISIONS) precision[p] = histogramCalls(now_.metrics.get(precisionMetric(p)));
  // Filled for every worst metric by the loop below
  const distribution = {} as QualitySummary['distribution'];
  for (const metric of WORST_METRICS)
    distribution[metric] = [...(now_.metrics.get(metric) ?? new Map()).entries()]
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => a - b)
      .map(([value, calls]) => ({ value: shownValue(metric, value), calls }));
  return {
    current: periodOf(current, now_),
    previous: periodOf(previous, before),
    precision,
    distribution,
    worst,
  };
}
