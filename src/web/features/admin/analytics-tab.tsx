/**
 * The console's Analytics tab: over a range of days, what the agency billed, what the
 * provider charged and the margin, in total and per client, against the period before; the days
 * on a chart; and the clients at risk with their reasons.
 */
import { lazy, Suspense, useState } from 'react';
import type { AdminAnalytics, AnalyticsChanges } from '../../../contract/agency';
import {
  CHANGE_FROM_NOTHING,
  changeMeaning,
  formatCount,
  formatPercentChange,
  isChangeFromNothing,
} from '../../../contract/format';
import { NativeSelect } from '../../components/native-select';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/utils';
import { CustomRangeDialog, rangeLabel } from '../calls/custom-range-dialog';
import { AtRiskCard } from './at-risk-card';
import { type AnalyticsRange, type PortfolioView, useAdminAnalytics } from './console-queries';
import { cents } from './money';
import { FIRST_VIEW, PortfolioTable } from './portfolio-table';

const PortfolioChart = lazy(() => import('./portfolio-chart'));

const PRESETS = [
  { value: '1d', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
] as const;
const CUSTOM = 'custom';

export function AnalyticsTab({ onSupport }: { onSupport: (clientId: string) => void }) {
  const [range, setRange] = useState<AnalyticsRange>({ dateRange: '30d' });
  const [view, setView] = useState<PortfolioView>(FIRST_VIEW);
  const [choosing, setChoosing] = useState(false);
  const analytics = useAdminAnalytics(range, view);
  // Another range reorders the clients: the table starts again at its first page.
  const changeRange = (next: AnalyticsRange) => {
    setRange(next);
    setView((v) => ({ ...v, page: 1 }));
  };
  const custom = 'from' in range;

  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="analytics-range">Date Range</Label>
          <NativeSelect
            id="analytics-range"
            value={custom ? CUSTOM : range.dateRange}
            onChange={(e) =>
              e.target.value === CUSTOM ? setChoosing(true) : changeRange({ dateRange: e.target.value })
            }
          >
            {PRESETS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
            <option value={CUSTOM}>{custom ? rangeLabel(range.from, range.to) : 'Custom range…'}</option>
          </NativeSelect>
        </div>
        {analytics.data && (
          <p className="pb-2 text-muted-foreground text-sm">
            {rangeLabel(analytics.data.range.from, analytics.data.range.to)}, against{' '}
            {rangeLabel(analytics.data.previous.from, analytics.data.previous.to)}
          </p>
        )}
      </div>
      <CustomRangeDialog
        open={choosing}
        from={custom ? range.from : ''}
        to={custom ? range.to : ''}
        daysOf="each client's own time zone"
        onApply={(next) => {
          changeRange(next);
          setChoosing(false);
        }}
        onCancel={() => setChoosing(false)}
      />

      {analytics.isError ? (
        <Card>
          <CardContent role="alert" className="py-6 text-destructive text-sm">
            The analytics could not be loaded. Try again in a moment.
          </CardContent>
        </Card>
      ) : (
        <Totals data={analytics.data} />
      )}

      <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Revenue and provider cost</CardTitle>
            <CardDescription>
              Per day: what the clients were billed and what the provider charged
            </CardDescription>
          </CardHeader>
          <CardContent>
            {analytics.data ? (
              <Suspense fallback={<Skeleton className="h-64 w-full" />}>
                <PortfolioChart series={analytics.data.series} />
              </Suspense>
            ) : (
              <Skeleton className="h-64 w-full" />
            )}
          </CardContent>
        </Card>
        <AtRiskCard onSupport={onSupport} />
      </div>

      <PortfolioTable
        clients={analytics.data?.clients}
        pagination={analytics.data?.pagination}
        view={view}
        onViewChange={setView}
      />
    </div>
  );
}

const FIGURES: { key: keyof AnalyticsChanges; label: string; show: (d: AdminAnalytics) => string }[] = [
  { key: 'revenueCents', label: 'Revenue', show: (d) => cents(d.totals.revenueCents) },
  { key: 'costCents', label: 'Provider cost', show: (d) => cents(d.totals.costCents) },
  { key: 'marginCents', label: 'Margin', show: (d) => cents(d.totals.marginCents) },
  { key: 'calls', label: 'Calls', show: (d) => formatCount(d.totals.calls) },
  { key: 'minutes', label: 'Minutes', show: (d) => formatCount(Math.round(d.totals.minutes)) },
];

const TONE = { good: 'text-emerald-700', bad: 'text-red-700', flat: 'text-muted-foreground' } as const;

/** Green for good news, red for bad, grey for no change or "new"; a cost going up is not good news. */
function Change({ data, figure }: { data: AdminAnalytics; figure: keyof AnalyticsChanges }) {
  const change = data.changes[figure];
  const fromNothing = isChangeFromNothing(data.totals[figure], data.previousTotals[figure]);
  const tone = fromNothing ? 'flat' : changeMeaning(change, figure === 'costCents' ? 'down' : 'up');
  return (
    <span className={cn('font-medium tabular-nums', TONE[tone])} data-testid={`analytics-change-${figure}`}>
      {fromNothing ? CHANGE_FROM_NOTHING : formatPercentChange(change)}
    </span>
  );
}

function Totals({ data }: { data: AdminAnalytics | undefined }) {
  return (
    <section aria-label="Portfolio totals" className="grid grid-cols-2 gap-3 md:grid-cols-5">
      {FIGURES.map(({ key, label, show }) => (
        <Card key={key} className="gap-1 py-4">
          <CardContent className="px-4">
            <p className="text-muted-foreground text-xs sm:text-sm">{label}</p>
            {data ? (
              <>
                <p className="font-bold text-xl tabular-nums sm:text-2xl">{show(data)}</p>
                <p className="text-xs">
                  <Change data={data} figure={key} />{' '}
                  <span className="text-muted-foreground">vs previous period</span>
                </p>
                {key === 'marginCents' && data.totals.marginPercent !== null && (
                  <p className="text-muted-foreground text-xs">
                    {data.totals.marginPercent.toFixed(1)}% of revenue
                  </p>
                )}
              </>
            ) : (
              <Skeleton className="mt-2 h-7 w-20" />
            )}
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
