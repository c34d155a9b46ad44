/**
 * The public demo (SPEC §2 "Demo dashboard"): the calls workspace on the demo tenant's data,
 * read-only (its source offers no delete, marking, live stream or export), with no search and a
 * Recent Activity box beside the calls chart.
 */
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { BrandMark } from '../../components/brand-mark';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DEMO_CALL_SOURCE } from '../calls/call-source';
import { CallsWorkspace } from '../calls/calls-workspace';
import { RecentActivity } from './recent-activity';

export function DemoDashboard() {
  return (
    <CallsWorkspace
      source={DEMO_CALL_SOURCE}
      header={<DemoHeader />}
      heading={false}
      besideCallsChart={({ source, filters }) => <RecentActivity source={source} scope={filters} />}
      emptyText="No call logs found for the selected filters."
    />
  );
}

export function DemoHeader() {
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
        <div className="min-w-0">
          <BrandMark className="mb-2" />
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
  );
}
