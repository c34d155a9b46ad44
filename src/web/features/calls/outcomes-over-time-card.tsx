/** "Outcomes Over Time": the stacked chart beside "Calls Over Time", over the same window and pathway. */
import { lazy, useMemo } from 'react';
import { QueryView } from '../../components/query-view';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import type { CallSource } from './call-source';
import { hasChartData } from './chart-points';
import { CHART_HEIGHT_PX } from './chart-size';
import { ChartAreaSkeleton, DeferredChart } from './deferred-chart';
import { type AnalyticsScope, chartInterval, dateWindow, isCustomRange } from './filters';
import { seriesWithCalls, toOutcomeChartRows } from './outcome-chart-rows';
import { useOutcomeSummary, useOutcomesOverTime } from './queries';

const OutcomesChart = lazy(() => import('./outcomes-chart'));

export function OutcomesOverTimeCard({ source, scope }: { source: CallSource; scope: AnalyticsScope }) {
  const query = useOutcomesOverTime(source, scope);
  const summary = useOutcomeSummary(source, scope);
  const rows = useMemo(
    () =>
      toOutcomeChartRows(
        query.data,
        chartInterval(scope),
        isCustomRange(scope) ? '' : dateWindow(scope.dateRange, query.dataUpdatedAt || Date.now()).startDate,
      ),
    [query.data, query.dataUpdatedAt, scope],
  );
  const series = useMemo(
    () =>
      seriesWithCalls(
        (summary.data ?? []).map(({ name, color }) => ({ name, color })),
        rows,
      ),
    [summary.data, rows],
  );
  return (
    <Card className="min-w-0 gap-4" data-testid="outcomes-over-time">
      <CardHeader>
        <CardTitle className="text-lg">Outcomes Over Time</CardTitle>
      </CardHeader>
      <CardContent className="px-2 sm:px-6">
        <QueryView
          query={query}
          what="the outcomes chart"
          loading={<ChartAreaSkeleton />}
          isEmpty={() => false}
          empty={null}
        >
          {() =>
            hasChartData(rows) && series.length > 0 ? (
              <DeferredChart>
                {(width) => <OutcomesChart rows={rows} series={series} initialWidth={width} />}
              </DeferredChart>
            ) : (
              <p
                className="flex items-center justify-center text-center text-muted-foreground text-sm"
                style={{ height: CHART_HEIGHT_PX }}
              >
                No outcomes to show for the selected period
              </p>
            )
          }
        </QueryView>
      </CardContent>
    </Card>
  );
}
