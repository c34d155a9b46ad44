/** Data shaping for the calls-over-time chart; the chart component only draws what this returns. */
import type { ChartInterval, DailyPoint } from '../../../contract/calls';
import { formatChartDate } from '../../../contract/format';

/** What the chart query returns: the points and the window they cover. */
export interface ChartData {
  points: DailyPoint[];
  interval: ChartInterval;
  /** ISO start of the window; the first point counts only the calls from then on. */
  startDate: string;
  /** Whether the window ends now, so its last point is still filling ("so far"); true when absent. */
  endsNow?: boolean;
}

export interface ChartPoint {
  date: string;
  /** Axis label: short month and day in US English ("Mar 5"), or the hour ("3 PM"). */
  label: string;
  /** The tooltip's heading: the day or hour in full, and whether it is only partly in the window. */
  title: string;
  count: number;
}

const weekdayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

function hourLabel(hour: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** "2026-03-05T14:00" → { day: "2026-03-05", hour: 14 }; a plain day has no hour. */
function splitKey(date: string): { day: string; hour: number | null } {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):\d{2})?$/.exec(date);
  if (!m) return { day: date, hour: null };
  return { day: m[1], hour: m[2] === undefined ? null : Number(m[2]) };
}

function weekday(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(t) ? '' : `${weekdayFormat.format(t)}, `;
}

export function toChartPoints(data: ChartData | null | undefined): ChartPoint[] {
  if (!data || !Array.isArray(data.points)) return [];
  const start = Date.parse(data.startDate);
  const since = Number.isNaN(start) ? '' : ` (since ${timeFormat.format(start)})`;
  const last = data.points.length - 1;
  return data.points.map((p, i) => {
    const { day, hour } = splitKey(p.date);
    const count = Number(p.count) || 0;
    if (hour !== null) {
      const title = `${formatChartDate(day)}, ${hourLabel(hour)} – ${hourLabel((hour + 1) % 24)}`;
      return { date: p.date, label: hourLabel(hour), title: i === 0 ? `${title}${since}` : title, count };
    }
    const title = `${weekday(day)}${formatChartDate(day)}`;
    const partial = i === 0 && last > 0 ? since : i === last && data.endsNow !== false ? ' (so far)' : '';
    return { date: p.date, label: formatChartDate(day), title: `${title}${partial}`, count };
  });
}

/**
 * Nothing to draw: no list, an empty one, or (since the server fills every day) only zeros,
 * which would be a flat line that says less than the empty-state text.
 */
export function hasChartData(points: ChartPoint[]): boolean {
  return points.some((p) => p.count > 0);
}

/**
 * One sentence for screen readers: the total and the busiest point. Worded apart from the card's
 * visible texts ("Calls Over Time", "Completed Calls"), which are found by their words.
 */
export function describeChart(points: ChartPoint[]): string {
  const total = points.reduce((n, p) => n + p.count, 0);
  const busiest = points.reduce<ChartPoint | null>(
    (best, p) => (!best || p.count > best.count ? p : best),
    null,
  );
  const n = (count: number) => count.toLocaleString('en-US');
  return busiest
    ? `Total ${n(total)} in the period; busiest: ${busiest.title} with ${n(busiest.count)}.`
    : '';
}
