/**
 * The stacked outcomes chart (Recharts), loaded lazily like the calls chart: a bar per day (or
 * hour), one colour per outcome, in the client's order.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import { xAxisLabel, yAxisLabel } from './chart-axis-labels';
import { describeChart } from './chart-points';
import { CHART_HEIGHT_PX as CHART_HEIGHT } from './chart-size';
import { countIn, type OutcomeChartRow, type OutcomeSeries } from './outcome-chart-rows';

/**
 * One accessor per outcome for the chart's whole life. Recharts keeps each Bar's settings in its
 * store and registers them again whenever a prop changes identity: an accessor made on each render
 * made every render of the chart register every bar again, and re-render the chart for it (* 1.5 s of one long task on a 4x slowed phone for the demo's chart).
 */
const accessors = new Map<string, (row: OutcomeChartRow) => number>();
function countOf(name: string): (row: OutcomeChartRow) => number {
  let accessor = accessors.get(name);
  if (!accessor) {
    accessor = (row) => countIn(row, name);
    accessors.set(name, accessor);
  }
  return accessor;
}

function RowTooltip({
  active,
  payload,
  series,
}: Partial<TooltipContentProps<number, string>> & { series: OutcomeSeries[] }) {
  // Recharts types payload loosely; it is the data row we gave the chart
  const row = payload?.[0]?.payload as OutcomeChartRow | undefined;
  if (!active || !row) return null;
  return (
    <div className="rounded-md border bg-popover px-3 py-2 text-popover-foreground text-sm shadow-md">
      <p className="font-medium">{row.title}</p>
      <ul className="mt-1 flex flex-col gap-0.5">
        {series
          .filter((s) => countIn(row, s.name) > 0)
          .map((s) => (
            <li key={s.name} className="flex items-center gap-2 text-muted-foreground">
              <span
                className="inline-block size-2 rounded-full"
                style={{ background: s.color }}
                aria-hidden="true"
              />
              <span>
                <span className="font-semibold text-foreground tabular-nums">
                  {countIn(row, s.name).toLocaleString('en-US')}
                </span>{' '}
                {s.name}
              </span>
            </li>
          ))}
      </ul>
    </div>
  );
}

export default function OutcomesChart({
  rows,
  series,
  initialWidth,
}: {
  rows: OutcomeChartRow[];
  series: OutcomeSeries[];
  /** The width measured before mounting (AfterPaint), so the first render is the last. */
  initialWidth: number;
}) {
  return (
    <div style={{ height: CHART_HEIGHT }} data-testid="outcomes-chart">
      <ResponsiveContainer
        width="100%"
        height={CHART_HEIGHT}
        initialDimension={{ width: initialWidth, height: CHART_HEIGHT }}
      >
        <BarChart
          data={rows}
          margin={{ top: 8, right: 16, bottom: 0, left: -16 }}
          aria-label="Chart of calls per outcome per day or hour"
          desc={describeChart(rows)}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis dataKey="label" tick={xAxisLabel(rows.length, initialWidth)} tickLine={false} interval={0} />
          <YAxis allowDecimals={false} tick={yAxisLabel} tickLine={false} width={48} interval={0} />
          <Tooltip content={<RowTooltip series={series} />} cursor={{ fill: '#f1f5f9' }} />
          <Legend verticalAlign="top" align="right" height={32} iconType="circle" iconSize={8} />
          {series.map((s) => (
            <Bar
              key={s.name}
              dataKey={countOf(s.name)}
              name={s.name}
              stackId="outcomes"
              fill={s.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
