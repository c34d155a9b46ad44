/** The client dashboard body (SPEC §2): filter bar, stats strip, calls-over-time chart, call log. */
import { useState } from 'react';
import type { ClientSession } from '../../../contract/auth';
import { CallFilterBar } from '../../components/calls/call-filter-bar';
import { CallLogTable } from '../../components/calls/call-log-table';
import { CallSearchBox } from '../../components/calls/call-search-box';
import { CallStatsStrip } from '../../components/calls/call-stats-strip';
import { CallsOverTimeCard } from '../../components/calls/calls-over-time-card';
import { useCallFilters } from '../../components/calls/use-call-filters';
import { CLIENT_CALL_SOURCE } from '../calls/call-source';
import { DashboardHeader } from './dashboard-header';

export function ClientDashboard({ client }: { client: ClientSession }) {
  const source = CLIENT_CALL_SOURCE;
  const { filters, change, setPage } = useCallFilters();
  const [searchOpen, setSearchOpen] = useState(false);

  const closeSearch = () => {
    setSearchOpen(false);
    change({ search: '' });
  };

  return (
    <div className="min-h-screen bg-background">
      <DashboardHeader
        client={client}
        searchOpen={searchOpen}
        onToggleSearch={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
      />
      <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:px-8">
        <h2 className="font-semibold text-xl">Call Analytics Dashboard</h2>
        {searchOpen && (
          <CallSearchBox
            value={filters.search}
            onSearch={(search) => change({ search })}
            onClose={closeSearch}
          />
        )}
        <CallFilterBar filters={filters} dateRanges={source.dateRanges} onChange={change} />
        <CallStatsStrip source={source} dateRange={filters.dateRange} />
        <CallsOverTimeCard source={source} dateRange={filters.dateRange} />
        <CallLogTable source={source} filters={filters} onPageChange={setPage} />
      </main>
    </div>
  );
}
