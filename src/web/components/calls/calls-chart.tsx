/**
 * The Recharts line chart. Loaded lazily (React.lazy in calls-over-time-card.tsx), so Recharts
 * is only downloaded by pages that show a chart. Draws exactly the points it is given.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from './chart-points';
import { CHART_HEIGHT_PX as CHART_HEIGHT } from './chart-size';

export const LINE_COLOR = '#3b82f6';

export default function CallsChart({ points }: { points: ChartPoint[] }) {
  return (
    <div style={{ height: CHART_HEIGHT }} data-testid="calls-chart">
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} tickLine={false} width={48} />
          <Tooltip labelFormatter={(label) => String(label)} />
          <Legend verticalAlign="top" align="right" height={32} iconType="plainline" />
          <Line
            type="monotone"
            dataKey="count"
            name="Completed Calls"
            stroke={LINE_COLOR}
            strokeWidth={2}
            dot={points.length <= 31 ? { r: 3 } : false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
