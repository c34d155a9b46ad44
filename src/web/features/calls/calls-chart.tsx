/**
 * The Recharts line chart. Loaded lazily (React.lazy in calls-over-time-card.tsx), so Recharts
 * is only downloaded by pages that show a chart. Draws exactly the points it is given.
 */
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import { isDefaultPalette, useBrand } from '../../lib/brand';
import { xAxisLabel, yAxisLabel } from './chart-axis-labels';
import { type ChartPoint, describeChart } from './chart-points';
import { CHART_HEIGHT_PX as CHART_HEIGHT } from './chart-size';

/** SPEC's blue line, while no agency colour is saved. */
export const LINE_COLOR = '#3b82f6';
/**
 * With a brand saved, its colour as lines on light surfaces: the contrast guard's --primary-text
 * (src/contract/brand-contrast.ts), so a pale brand colour still draws a visible line.
 */
const BRAND_LINE_COLOR = 'var(--primary-text)';

function useLineColor(): string {
  return isDefaultPalette(useBrand()) ? LINE_COLOR : BRAND_LINE_COLOR;
}

function PointTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const lineColor = useLineColor();
  // Recharts types payload loosely; it is the data row we gave the chart
  const point = payload?.[0]?.payload as ChartPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="rounded-md border bg-popover px-3 py-2 text-popover-foreground text-sm shadow-md">
      <p className="font-medium">{point.title}</p>
      <p className="mt-0.5 flex items-center gap-2 text-muted-foreground">
        <span
          className="inline-block size-2 rounded-full"
          style={{ background: lineColor }}
          aria-hidden="true"
        />
        <span>
          <span className="font-semibold text-foreground tabular-nums">
            {point.count.toLocaleString('en-US')}
          </span>{' '}
          {point.count === 1 ? 'call' : 'calls'} completed
        </span>
      </p>
    </div>
  );
}

/** `initialWidth`: the width measured before mounting (AfterPaint), so the first render is the last. */
export default function CallsChart({ points, initialWidth }: { points: ChartPoint[]; initialWidth: number }) {
  const lineColor = useLineColor();
  return (
    <div style={{ height: CHART_HEIGHT }} data-testid="calls-chart">
      <ResponsiveContainer
        width="100%"
        height={CHART_HEIGHT}
        initialDimension={{ width: initialWidth, height: CHART_HEIGHT }}
      >
        <LineChart
          data={points}
          margin={{ top: 8, right: 16, bottom: 0, left: -16 }}
          // The chart is a tab stop (arrow keys walk its points); it needs a name and a summary.
          aria-label="Chart of completed calls per day or hour"
          desc={describeChart(points)}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis
            dataKey="label"
            tick={xAxisLabel(points.length, initialWidth, true)}
            tickLine={false}
            interval={0}
          />
          <YAxis allowDecimals={false} tick={yAxisLabel} tickLine={false} width={48} interval={0} />
          <Tooltip content={<PointTooltip />} cursor={{ stroke: '#94a3b8', strokeDasharray: '3 3' }} />
          <Legend verticalAlign="top" align="right" height={32} iconType="plainline" />
          <Line
            // Monotone: the curve never overshoots its points (no dip below zero between spikes).
            type="monotone"
            dataKey="count"
            name="Completed Calls"
            stroke={lineColor}
            strokeWidth={2}
            dot={points.length <= 31 ? { r: 3 } : false}
            activeDot={{ r: 5 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
