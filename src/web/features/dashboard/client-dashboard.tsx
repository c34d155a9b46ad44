/**
 * The client dashboard body (SPEC §2; issue 13): filter bar, stats strip, outcomes, the calls and
 * outcomes charts, "Needs attention", the call log and the call detail drawer.
 */
import { useRef, useState } from 'react';
import type { ClientSession } from '../../../contract/auth';
import { CallDetailDrawer } from '../../components/calls/call-detail-drawer';
import { CallFilterBar } from '../../components/calls/call-filter-bar';
import { CallLogTable } from '../../components/calls/call-log-table';
import { CallSearchBox } from '../../components/calls/call-search-box';
import { CallStatsStrip } from '../../components/calls/call-stats-strip';
import { OutcomeInsights, useOutcomeNames } from '../../components/calls/outcome-insights';
import { useCallDrawer } from '../../components/calls/use-call-drawer';
import { useCallFilters } from '../../components/calls/use-call-filters';
import { useLiveCalls } from '../../components/calls/use-live-calls';
import { LiveIndicator } from '../../components/calls/live-indicator';
import { LiveNowStrip } from '../../components/calls/live-now-strip';
import { CLIENT_CALL_SOURCE } from '../calls/call-source';
import { DashboardHeader } from './dashboard-header';
import { MonthlyReportDownload } from './monthly-report-download';
import { PaymentActionBanner } from './payment-action-banner';

export function ClientDashboard({ client }: { client: ClientSession }) {
  const source = CLIENT_CALL_SOURCE;
  const { filters, change, setPage } = useCallFilters(source.dateRanges);
  // A link or a reload with a search in it opens the box with the search.
  const [searchOpen, setSearchOpen] = useState(() => filters.search !== '');
  const drawer = useCallDrawer();
  const outcomes = useOutcomeNames(source, filters);
  const attentionRef = useRef<HTMLDivElement>(null);
  const live = useLiveCalls(source);

  const closeSearch = () => {
    setSearchOpen(false);
    change({ search: '' });
  };
  const showAttention = () => {
    attentionRef.current?.scrollIntoView({ block: 'start' });
    attentionRef.current?.focus({ preventScroll: true });
  };

  return (
    <div className="min-h-screen bg-background">
      <DashboardHeader
        client={client}
        searchOpen={searchOpen}
        onToggleSearch={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
        onShowAttention={showAttention}
      />
      <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:px-8">
        <PaymentActionBanner />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-semibold text-xl">Call Analytics Dashboard</h2>
            <LiveIndicator state={live.state} />
          </div>
          <MonthlyReportDownload />
        </div>
        <LiveNowStrip source={source} inProgress={live.inProgress} />
        {searchOpen && (
          <CallSearchBox
            value={filters.search}
            onSearch={(search) => change({ search })}
            onClose={closeSearch}
          />
        )}
        <CallFilterBar
          filters={filters}
          dateRanges={source.dateRanges}
          onChange={change}
          searchable
          outcomes={outcomes}
          timeZone={client.timezone}
        />
        <CallStatsStrip source={source} scope={filters} />
        <OutcomeInsights
          ref={attentionRef}
          source={source}
          filters={filters}
          onChange={change}
          onOpenCall={drawer.open}
        />
        <CallLogTable
          source={source}
          filters={filters}
          onChange={change}
          onPageChange={setPage}
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
