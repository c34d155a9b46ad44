/** Data shaping for the stacked outcomes chart: the calls chart's labels, one series per outcome. */
import type { ChartInterval } from '../../../contract/calls';
import type { OutcomePoint } from '../../../contract/outcomes';
import { type ChartPoint, toChartPoints } from './chart-points';

export interface OutcomeSeries {
  name: string;
  color: string;
}

/**
 * A chart row: the point's label and title, its total, and a count per outcome name. A Map: the
 * names are the client's own, and a plain object answers "constructor" for every row.
 */
export type OutcomeChartRow = ChartPoint & { counts: ReadonlyMap<string, number> };

/** The row's count of an outcome (none: 0). */
export const countIn = (row: OutcomeChartRow, name: string) => row.counts.get(name) ?? 0;

export function toOutcomeChartRows(
  points: OutcomePoint[] | undefined,
  interval: ChartInterval,
  startDate: string,
): OutcomeChartRow[] {
  if (!Array.isArray(points)) return [];
  const totals = points.map((p) => ({
    date: p.date,
    count: Object.values(p.counts).reduce((n, c) => n + (Number(c) || 0), 0),
  }));
  return toChartPoints({ points: totals, interval, startDate }).map((point, i) => ({
    ...point,
    counts: new Map(Object.entries(points[i].counts)),
  }));
}

/** The series to stack: the summary's outcomes in their order, only those with calls in the window. */
export function seriesWithCalls(series: OutcomeSeries[], rows: OutcomeChartRow[]): OutcomeSeries[] {
  return series.filter((s) => rows.some((r) => countIn(r, s.name) > 0));
}
