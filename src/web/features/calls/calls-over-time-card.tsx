/** "Calls Over Time": loading skeleton, empty text, or the lazily loaded chart. */
import { lazy, useMemo } from 'react';
import { QueryView } from '../../components/query-view';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import type { CallSource } from './call-source';
import { hasChartData, toChartPoints } from './chart-points';
import { CHART_HEIGHT_PX } from './chart-size';
import { ChartAreaSkeleton, DeferredChart } from './deferred-chart';
import type { AnalyticsScope } from './filters';
import { useCallsOverTime } from './queries';

const CallsChart = lazy(() => import('./calls-chart'));

function ChartSkeleton() {
  return (
    <Card className="gap-4" data-testid="chart-loading">
      <CardHeader className="flex flex-row items-center justify-between">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-4 w-28" />
      </CardHeader>
      <CardContent>
        <ChartAreaSkeleton />
      </CardContent>
    </Card>
  );
}

export function CallsOverTimeCard({ source, scope }: { source: CallSource; scope: AnalyticsScope }) {
  const query = useCallsOverTime(source, scope);
  const points = useMemo(() => toChartPoints(query.data), [query.data]);
  return (
    <QueryView query={query} what="the chart" loading={<ChartSkeleton />} isEmpty={() => false} empty={null}>
      {() => (
        <Card className="gap-4" data-testid="calls-over-time">
          <CardHeader>
            <CardTitle className="text-lg">Calls Over Time</CardTitle>
          </CardHeader>
          <CardContent className="px-2 sm:px-6">
            {hasChartData(points) ? (
              <DeferredChart>{(width) => <CallsChart points={points} initialWidth={width} />}</DeferredChart>
            ) : (
              <p
                className="flex items-center justify-center text-center text-muted-foreground text-sm"
                style={{ height: CHART_HEIGHT_PX }}
              >
                No call data available for the selected period
              </p>
            )}
          </CardContent>
        </Card>
      )}
    </QueryView>
  );
}
