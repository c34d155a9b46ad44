/** Revenue and provider cost per day (Recharts, loaded lazily by the Analytics tab). */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AdminAnalytics } from '../../../contract/agency';
import { formatChartDate, formatMoney } from '../../../contract/format';

const HEIGHT = 256;
const REVENUE = '#2563eb';
const COST = '#dc2626';

export default function PortfolioChart({ series }: { series: AdminAnalytics['series'] }) {
  const points = series.map((p) => ({
    label: formatChartDate(p.date),
    revenue: p.revenueCents / 100,
    cost: p.costCents / 100,
  }));
  const revenue = series.reduce((n, p) => n + p.revenueCents, 0) / 100;
  const cost = series.reduce((n, p) => n + p.costCents, 0) / 100;
  return (
    <div style={{ height: HEIGHT }} data-testid="portfolio-chart">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart
          data={points}
          margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
          aria-label="Chart of revenue and provider cost per day"
          desc={`${points.length} days: ${formatMoney(revenue)} billed, ${formatMoney(cost)} provider cost.`}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={16} />
          <YAxis
            tick={{ fontSize: 12 }}
            tickLine={false}
            width={64}
            tickFormatter={(v: number) => formatMoney(v)}
          />
          <Tooltip formatter={(value) => formatMoney(Number(value))} />
          <Legend verticalAlign="top" align="right" height={32} iconType="plainline" />
          <Line
            type="monotone"
            dataKey="revenue"
            name="Revenue"
            stroke={REVENUE}
            strokeWidth={2}
            dot={false}
          />
          <Line
            type="monotone"
            dataKey="cost"
            name="Provider cost"
            stroke={COST}
            strokeWidth={2}
            dot={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
