/**
 * The public demo (SPEC §2 "Demo dashboard"): the client dashboard's components on the demo
 * tenant's data, read-only, with the demo's date ranges and a Recent Activity box.
 */
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { CallFilterBar } from '../../components/calls/call-filter-bar';
import { CallLogTable } from '../../components/calls/call-log-table';
import { CallStatsStrip } from '../../components/calls/call-stats-strip';
import { CallsOverTimeCard } from '../../components/calls/calls-over-time-card';
import { CallDetailDrawer } from '../../components/calls/call-detail-drawer';
import { OutcomeInsights, useOutcomeNames } from '../../components/calls/outcome-insights';
import { useCallDrawer } from '../../components/calls/use-call-drawer';
import { useCallFilters } from '../../components/calls/use-call-filters';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DEMO_CALL_SOURCE } from '../calls/call-source';
import { RecentActivity } from './recent-activity';

export function DemoDashboard() {
  const source = DEMO_CALL_SOURCE;
  const { filters, change, setPage } = useCallFilters(source.dateRanges, { dateRange: '7d' });
  const drawer = useCallDrawer();
  const outcomes = useOutcomeNames(source, filters);
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="font-bold text-2xl">Call Analytics Dashboard</h1>
              <Badge variant="secondary">Live Demo</Badge>
            </div>
            <p className="text-muted-foreground text-sm">
              Sample calls of a demo AI voice agent, updated as time goes by
            </p>
          </div>
          <Button variant="outline" asChild>
            <Link href="/">
              <ArrowLeft aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:px-8">
        <CallStatsStrip source={source} scope={filters} />
        <div className="grid min-w-0 gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <CallsOverTimeCard source={source} scope={filters} />
          </div>
          <RecentActivity source={source} scope={filters} />
        </div>
        <OutcomeInsights
          source={source}
          filters={filters}
          onChange={change}
          onOpenCall={drawer.open}
          withCallsChart={false}
        />
        <CallFilterBar
          filters={filters}
          dateRanges={source.dateRanges}
          onChange={change}
          outcomes={outcomes}
        />
        <CallLogTable
          source={source}
          filters={filters}
          onChange={change}
          onPageChange={setPage}
          emptyText="No call logs found for the selected filters."
          onOpenCall={drawer.open}
        />
      </main>
      <CallDetailDrawer
        source={source}
        scope={filters}
        callId={drawer.callId}
        startAt={drawer.startAt}
        onClose={drawer.close}
      />
    </div>
  );
}
