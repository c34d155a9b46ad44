/** The demo's Recent Activity box (SPEC §2 "Demo dashboard"): revenue and duration from the stats, two fixed figures. */

import { formatCount, formatMoney } from '../../../contract/format';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import type { CallSource } from '../calls/call-source';
import type { AnalyticsScope } from '../calls/filters';
import { useDemoStats } from '../calls/queries';

/** Shown as the product states them: the demo does not measure these. */
export const DEMO_SUCCESS_RATE = '100%';
export const DEMO_ACTIVE_PATHWAYS = 3;

export function RecentActivity({ source, scope }: { source: CallSource; scope: AnalyticsScope }) {
  const { data, isPending } = useDemoStats(source, scope);
  const rows: [string, string | null][] = [
    ['Total Revenue', data ? formatMoney(data.totalRevenue ?? data.totalCost) : null],
    ['Average Call Duration', data ? `${formatCount(Math.round(data.avgDuration))} seconds` : null],
    ['Success Rate', DEMO_SUCCESS_RATE],
    ['Active Pathways', String(DEMO_ACTIVE_PATHWAYS)],
  ];
  return (
    <Card className="gap-4" data-testid="recent-activity">
      <CardHeader>
        <CardTitle className="text-lg">Recent Activity</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col divide-y">
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
              <dt className="text-muted-foreground text-sm">{label}</dt>
              <dd className="font-semibold tabular-nums">
                {value ?? (isPending ? <Skeleton className="h-5 w-20" /> : '—')}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
