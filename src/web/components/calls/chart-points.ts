/** Data shaping for the calls-over-time chart; the chart component only draws what this returns. */
import type { DailyPoint } from '../../../contract/calls';
import { formatChartDate } from '../../../contract/format';

export interface ChartPoint {
  date: string;
  /** Axis label: short month and day in US English ("Mar 5"). */
  label: string;
  count: number;
}

export function toChartPoints(points: DailyPoint[] | null | undefined): ChartPoint[] {
  if (!Array.isArray(points)) return [];
  return points.map((p) => ({ date: p.date, label: formatChartDate(p.date), count: Number(p.count) || 0 }));
}

/**
 * Nothing to draw: no list, an empty one, or (since the server fills every day) only zeros,
 * which would be a flat line that says less than the empty-state text.
 */
export function hasChartData(points: ChartPoint[]): boolean {
  return points.some((p) => p.count > 0);
}
