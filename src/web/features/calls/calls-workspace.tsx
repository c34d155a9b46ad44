/**
 * One calls workspace, the body of the client dashboard, the admin client view and the demo
 * (SPEC §2): the filter bar and search, the stats strip, outcomes, the charts, "Needs attention",
 * "Live now", the call log (exports, column chooser, pagination) and the call detail drawer; and
 * beside the calls, on a tab of its own, conversation quality (`?view=quality`).
 * What a view may do comes from its CallSource (no delete URL, no delete; no stream, no live
 * updates; its date ranges, cache times, exports and saved columns); how it is laid out from the
 * props below. The page keeps only its header and banners.
 */
import { BarChart3, Gauge } from 'lucide-react';
import { Fragment, lazy, type ReactNode, Suspense } from 'react';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { CallFilterBar } from './call-filter-bar';
import { CallLogTable } from './call-log-table';
import { CallSearchBox } from './call-search-box';
import type { CallSource } from './call-source';
import { CallStatsStrip } from './call-stats-strip';
import { CallsOverTimeCard } from './calls-over-time-card';
import { LiveIndicator } from './live-indicator';
import { LiveNowStrip } from './live-now-strip';
import { OutcomeInsights, useOutcomeNames } from './outcome-insights';
import { type CallsWorkspaceState, useCallsWorkspace } from './use-calls-workspace';
import { useLiveCalls } from './use-live-calls';
import {
  type FiltersPlacement,
  type SearchMode,
  splitSections,
  type WorkspaceSection,
  type WorkspaceView,
  workspaceSections,
} from './workspace-layout';
import { WorkspaceTabs } from './workspace-tabs';

// Not on the first screen: loaded and mounted only once wanted (a slowed phone's first
// render). The drawer stays mounted after its first opening, so it closes with its animation.
const CallDetailDrawer = lazy(() =>
  import('./call-detail-drawer').then((m) => ({ default: m.CallDetailDrawer })),
);
const QualityPanel = lazy(() => import('./quality/quality-panel').then((m) => ({ default: m.QualityPanel })));

export type { CallsWorkspaceState } from './use-calls-workspace';

export const WORKSPACE_HEADING = 'Call Analytics Dashboard';

const VIEW_TABS: { value: WorkspaceView; label: ReactNode }[] = [
  {
    value: 'calls',
    label: (
      <>
        <BarChart3 aria-hidden="true" /> Calls
      </>
    ),
  },
  {
    value: 'quality',
    label: (
      <>
        <Gauge aria-hidden="true" /> Quality
      </>
    ),
  },
];

export interface CallsWorkspaceProps {
  source: CallSource;
  /** The page's own header, above the main column; a function is given the workspace (search, attention). */
  header: ReactNode | ((workspace: CallsWorkspaceState) => ReactNode);
  /** Cards at the top of the main column (payment banner, client information). */
  banners?: ReactNode;
  /** The "Call Analytics Dashboard" row with the live indicator; false where the header says it (demo). */
  heading?: boolean;
  /** At the right of the heading row (the monthly report download). */
  headingActions?: ReactNode;
  /** The call log search: opened from the header, always shown, or none (the demo). */
  search?: SearchMode;
  /** The search box and filter bar at the top of the page, or just above the call log. */
  filtersAt?: FiltersPlacement;
  /** A panel beside the calls chart, which then sits under the stats (the demo's Recent Activity). */
  besideCallsChart?: (workspace: CallsWorkspaceState) => ReactNode;
  /** The account's time zone, which custom date ranges are counted in; none: the demo's. */
  timeZone?: string;
  /** The call log's text when the account has no call; defaults to the dashboard's. */
  emptyText?: string;
}

export function CallsWorkspace({
  source,
  header,
  banners,
  heading = true,
  headingActions,
  search = 'none',
  filtersAt = 'log',
  besideCallsChart,
  timeZone,
  emptyText,
}: CallsWorkspaceProps) {
  const workspace = useCallsWorkspace(source, search);
  const { filters, change, setPage, drawer } = workspace;
  const outcomes = useOutcomeNames(source, filters);
  const live = useLiveCalls(source);
  const drawerMounted = useHasBeenTrue(drawer.callId !== null);

  const title = (
    <div className="flex flex-wrap items-center gap-3">
      <h2 className="font-semibold text-xl">{WORKSPACE_HEADING}</h2>
      <LiveIndicator state={live.state} />
    </div>
  );
  // Built here, shown in the order workspaceSections gives (a section left out is not rendered).
  const sections: Record<WorkspaceSection, ReactNode> = {
    banners,
    heading: headingActions ? (
      <div className="flex flex-wrap items-center justify-between gap-3">
        {title}
        {headingActions}
      </div>
    ) : (
      title
    ),
    'live-now': <LiveNowStrip source={source} inProgress={live.inProgress} />,
    search:
      search === 'toggle' ? (
        <CallSearchBox
          value={filters.search}
          onSearch={(text) => change({ search: text })}
          onClose={workspace.closeSearch}
        />
      ) : (
        <CallSearchBox
          value={filters.search}
          onSearch={(text) => change({ search: text })}
          autoFocus={false}
        />
      ),
    filters: (
      <CallFilterBar
        filters={filters}
        dateRanges={source.dateRanges}
        onChange={change}
        searchable={search !== 'none'}
        outcomes={outcomes}
        timeZone={timeZone}
      />
    ),
    stats: <CallStatsStrip source={source} scope={filters} />,
    'calls-chart-beside': (
      <div className="grid min-w-0 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <CallsOverTimeCard source={source} scope={filters} />
        </div>
        {besideCallsChart?.(workspace)}
      </div>
    ),
    outcomes: (
      <OutcomeInsights
        ref={workspace.attentionRef}
        source={source}
        filters={filters}
        onChange={change}
        onOpenCall={drawer.open}
        withCallsChart={!besideCallsChart}
      />
    ),
    log: (
      <CallLogTable
        source={source}
        filters={filters}
        onChange={change}
        onPageChange={setPage}
        emptyText={emptyText}
        onOpenCall={drawer.open}
      />
    ),
  };
  const { shared, calls } = splitSections(
    workspaceSections({
      banners: banners !== undefined,
      heading,
      live: live.state !== null,
      searchShown: workspace.searchOpen,
      filtersAt,
      besideCallsChart: besideCallsChart !== undefined,
    }),
  );
  const show = (list: WorkspaceSection[]) =>
    // Keyed: a section keeps its state when another appears before it (the search box opening).
    list.map((section) => <Fragment key={section}>{sections[section]}</Fragment>);

  return (
    <div className="min-h-screen bg-background">
      {typeof header === 'function' ? header(workspace) : header}
      <main className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 sm:gap-6 sm:px-6 sm:py-6 lg:px-8">
        {show(shared)}
        <WorkspaceTabs
          label="What to show"
          tabs={VIEW_TABS}
          value={workspace.view}
          onValueChange={workspace.setView}
          className="gap-4 sm:gap-6"
          listClassName="w-full sm:w-fit"
          triggerClassName="px-4"
          panelClassName={workspace.view === 'calls' ? 'flex min-w-0 flex-col gap-4 sm:gap-6' : 'min-w-0'}
        >
          {workspace.view === 'calls' ? (
            show(calls)
          ) : (
            <Suspense fallback={null}>
              <QualityPanel
                source={source}
                filters={filters}
                onChange={change}
                onOpenCall={drawer.open}
                timeZone={timeZone}
              />
            </Suspense>
          )}
        </WorkspaceTabs>
      </main>
      {drawerMounted && (
        <Suspense fallback={null}>
          <CallDetailDrawer
            source={source}
            scope={filters}
            callId={drawer.callId}
            startAt={drawer.startAt}
            onClose={drawer.close}
          />
        </Suspense>
      )}
    </div>
  );
}
