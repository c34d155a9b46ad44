/** Data shaping for the stacked outcomes chart: the calls chart's labels, one series per outcome. */
import type { ChartInterval } from '../../../contract/calls';
import type { OutcomePoint } from '../../../contract/outcomes';
import { type ChartPoint, toChartPoints } from './chart-points';

export interface OutcomeSeries {
  name: string;
  color: string;
}

/** A chart row: the point's label and title, its total, and a count per outcome name. */
export type OutcomeChartRow = ChartPoint & { counts: Record<string, number> };

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
    counts: points[i].counts,
  }));
}

/** The series to stack: the summary's outcomes in their order, only those with calls in the window. */
export function seriesWithCalls(series: OutcomeSeries[], rows: OutcomeChartRow[]): OutcomeSeries[] {
  return series.filter((s) => rows.some((r) => (r.counts[s.name] ?? 0) > 0));
}
