/**
 * "Recent Call Logs": the call table with its row actions (call-row-actions.tsx: play, download,
 * transcript, delete), the expanded transcript, pagination and the delete dialog. What the rows may
 * do comes from the source: no delete URL, no delete button.
 */
import { ArrowRight } from 'lucide-react';
import { Fragment, lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { Call, CallSort, CallsPage, SortOrder } from '../../../contract/calls';
import { formatCallCreated, formatDuration, formatMoney } from '../../../contract/format';
import { isRankable, textSearchOf } from '../../../contract/search-query';
import { CopyValue } from '../../components/copy-field';
import { NativeSelect } from '../../components/native-select';
import { QueryView } from '../../components/query-view';
import { SortableHead } from '../../components/sortable-head';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { pathwayWords, useShowPlatformDetails } from '../../lib/platform-details';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { useMediaQuery, WIDE_SCREEN } from '../../lib/use-media-query';
import { cn } from '../../lib/utils';
import { ColumnChooser, useCallLogColumns } from './call-log-columns';
import { CallPagination } from './call-pagination';
import { CallActionMenu, CallActions, type CallActionsProps } from './call-row-actions';
import type { CallSource } from './call-source';
import { CallStatusBadge } from './call-status-badge';
import { downloadRecording } from './download-recording';
import { ExportLinks } from './export-links';
import {
  type CallFilters,
  DEFAULT_FILTERS,
  logFilterParams,
  QUALITY_FILTERS,
  rememberNextPage,
} from './filters';
import { columnLabel } from './log-column-labels';
import type { LogColumn } from './log-columns';
import { useDeleteCall } from './mutations';
import { AttentionBadge, OutcomeBadge } from './outcome-badge';
import { formatPhone } from './phone';
import { qualityBriefText } from './quality/quality-brief';
import { useCalls, useOutcomeSummary } from './queries';
import { SearchSnippet } from './search-snippet';
import { parseTranscript } from './transcript';
import { TranscriptPanel } from './transcript-panel';
import { useCallPlayback } from './use-call-playback';

export const EMPTY_CALLS_TEXT = 'No call logs found. Click the sync button to fetch data from Bland AI.';
/** SPEC's text without the platform's name, for a client the agency does not show it to. */
export const EMPTY_CALLS_TEXT_UNNAMED = 'No call logs found. Click the sync button to fetch your calls.';
/** When a filter, not the account, is why the log is empty: syncing would not help. */
export function noMatchText(showPlatform: boolean): string {
  const pathway = pathwayWords(showPlatform).lower;
  return `No calls match these filters. Try another status, ${pathway}, outcome, date range or search.`;
}

function isNarrowed(filters: CallFilters): boolean {
  return (
    filters.search.trim() !== '' ||
    filters.pathway !== DEFAULT_FILTERS.pathway ||
    filters.status !== DEFAULT_FILTERS.status ||
    filters.outcome !== DEFAULT_FILTERS.outcome ||
    filters.attention ||
    QUALITY_FILTERS.some(({ key }) => filters[key] !== null)
  );
}
/** Columns a click sorts by, and the sort each names. */
const SORTABLE: Partial<Record<LogColumn, Exclude<CallSort, 'relevance'>>> = {
  duration: 'duration',
  created: 'created',
  cost: 'cost',
};
/** The order the log is in: what the filters name, else the server's default for them. */
export function effectiveSort(filters: CallFilters): { sort: CallSort; order: SortOrder } {
  const text = filters.search.trim();
  // Newest first with a search too; best match only when chosen, for words alone.
  const sort =
    filters.sort === 'relevance' && !isRankable(text ? textSearchOf(text) : null)
      ? 'created'
      : (filters.sort ?? 'created');
  return { sort, order: filters.order ?? 'desc' };
}

/** A click on a column's heading: the newest/longest/dearest first, a second click reverses. */
function sortChange(filters: CallFilters, sort: CallSort): Partial<CallFilters> {
  const current = effectiveSort(filters);
  if (current.sort === sort && sort !== 'relevance')
    return { sort, order: current.order === 'desc' ? 'asc' : 'desc' };
  return { sort, order: 'desc' };
}

// Loaded and mounted once a delete is first asked for: not on the first screen.
const DeleteCallDialog = lazy(() =>
  import('./delete-call-dialog').then((m) => ({ default: m.DeleteCallDialog })),
);

export interface CallLogTableProps {
  source: CallSource;
  filters: CallFilters;
  onPageChange: (page: number) => void;
  /** Shown when no call matches; defaults to the dashboard's text, which points at the sync button. */
  emptyText?: string;
  /** Extra content at the right of the card title (a search box, say). */
  headerAction?: ReactNode;
  /** Opens the call detail drawer; without it rows have no details button. */
  onOpenCall?: (callId: string) => void;
  /** Changes the view's filters (sorting); without it the columns do not sort. */
  onChange?: (change: Partial<CallFilters>) => void;
}

export function CallLogTable({
  source,
  filters,
  onPageChange,
  emptyText,
  headerAction,
  onOpenCall,
  onChange,
}: CallLogTableProps) {
  const query = useCalls(source, filters);
  const showPlatform = useShowPlatformDetails();
  const columns = useCallLogColumns(source);
  const sorting = onChange && {
    ...effectiveSort(filters),
    onSort: (sort: CallSort) => onChange(sortChange(filters, sort)),
  };
  const outcomes = useOutcomeSummary(source, filters).data;
  const colorOf = (name: string | null) => outcomes?.find((o) => o.name === name)?.color;
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [pendingDeleteId, setPendingDeleteId] = useState<string | null>(null);
  const deleteDialogMounted = useHasBeenTrue(pendingDeleteId !== null);
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  // Recordings the server answered 410 for: gone at the provider, so their buttons are disabled.
  const [expiredIds, setExpiredIds] = useState<ReadonlySet<string>>(new Set());
  const markExpired = useCallback((callId: string) => setExpiredIds((ids) => new Set(ids).add(callId)), []);
  const playback = useCallPlayback(source.recordingUrl, markExpired);
  const deleteCall = useDeleteCall(source);
  const logRef = useRef<HTMLDivElement>(null);
  // After a delete the row's button is gone: focus the delete button now in its place, or the log.
  const deletedIndex = useRef(0);
  const focusAfterDelete = () => {
    // A row's delete button on a wide screen; on a phone, where delete is in a menu, the card's menu button.
    const buttons =
      logRef.current?.querySelectorAll<HTMLElement>('[data-delete-call], [data-call-menu]') ?? [];
    return buttons[Math.min(deletedIndex.current, buttons.length - 1)] ?? logRef.current;
  };

  // Deleting the last row of the last page leaves an empty page: step back to the new last one.
  const pagination = query.data?.pagination;
  useEffect(() => {
    if (pagination && query.data?.calls.length === 0 && pagination.page > pagination.totalPages) {
      onPageChange(pagination.totalPages);
    }
  }, [pagination, query.data, onPageChange]);

  const download = async (call: Call) => {
    if (!source.downloadUrl) return;
    setDownloadingId(call.id);
    if ((await downloadRecording(source.downloadUrl(call.id), call.id)) === 'expired') markExpired(call.id);
    setDownloadingId(null);
  };

  const confirmDelete = (callId: string) =>
    deleteCall.mutate(callId, {
      onSettled: () => setPendingDeleteId(null),
      onSuccess: () => setExpandedId((open) => (open === callId ? null : open)),
    });

  // Below this width each call is a card: a seven-column table does not fit a phone.
  const asTable = useMediaQuery(WIDE_SCREEN);
  const rowView = (call: Call, index: number): CallView => {
    const lines = parseTranscript(call.transcript);
    const expanded = expandedId === call.id && lines !== null;
    const actionProps: CallActionsProps = {
      call,
      source,
      recordingExpired: expiredIds.has(call.id),
      hasTranscript: lines !== null,
      expanded,
      playback: playback.statusOf(call.id),
      downloading: downloadingId === call.id,
      onPlay: () => playback.toggle(call.id),
      onDownload: () => download(call),
      onToggleTranscript: () => setExpandedId(expanded ? null : call.id),
      onOpen: onOpenCall && (() => onOpenCall(call.id)),
      onDelete: () => {
        deletedIndex.current = index;
        setPendingDeleteId(call.id);
      },
    };
    // A phone has no room for a row of icons, nor a finger for Delete beside Transcript: one menu.
    const actions = asTable ? <CallActions {...actionProps} /> : <CallActionMenu {...actionProps} />;
    return { call, lines: expanded ? lines : null, actions, outcomeColor: colorOf(call.outcome) };
  };

  return (
    <Card
      ref={logRef}
      tabIndex={-1}
      className="min-w-0 gap-4 outline-none max-sm:py-4"
      data-testid="call-log"
    >
      <CardHeader className="flex flex-col gap-3 max-sm:px-4 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <CardTitle className="text-lg">Recent Call Logs</CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          {headerAction}
          {sorting && (!asTable || filters.search.trim() !== '') && (
            <SortSelect
              sort={sorting.sort}
              order={sorting.order}
              searching={filters.search.trim() !== ''}
              onChange={onChange}
            />
          )}
          {asTable && <ColumnChooser visible={columns.visible} onChange={columns.setVisible} />}
          {source.exportUrl && (
            <ExportLinks url={source.exportUrl} params={() => logFilterParams(filters, Date.now())} />
          )}
        </div>
      </CardHeader>
      <CardContent className="min-w-0 px-2 sm:px-6">
        <audio {...playback.audioProps} className="hidden" data-testid="call-audio" />
        <QueryView<CallsPage>
          query={query}
          what="the call logs"
          loading={<TableSkeleton />}
          isEmpty={(page) => !page || page.calls.length === 0}
          empty={
            <p className="py-10 text-center text-muted-foreground text-sm">
              {isNarrowed(filters)
                ? noMatchText(showPlatform)
                : (emptyText ?? (showPlatform ? EMPTY_CALLS_TEXT : EMPTY_CALLS_TEXT_UNNAMED))}
            </p>
          }
        >
          {(page) => (
            <>
              <div className={cn(query.isPlaceholderData && 'opacity-60')}>
                {asTable ? (
                  <CallTable views={page.calls.map(rowView)} columns={columns.visible} sorting={sorting} />
                ) : (
                  <CallCards views={page.calls.map(rowView)} />
                )}
              </div>
              <CallPagination
                pagination={page.pagination}
                onPageChange={(target) => {
                  rememberNextPage(filters, page.pagination, target);
                  onPageChange(target);
                }}
              />
            </>
          )}
        </QueryView>
      </CardContent>
      {source.deleteUrl && deleteDialogMounted && (
        <Suspense fallback={null}>
          <DeleteCallDialog
            callId={pendingDeleteId}
            pending={deleteCall.isPending}
            onCancel={() => setPendingDeleteId(null)}
            onConfirm={confirmDelete}
            fallbackFocus={focusAfterDelete}
          />
        </Suspense>
      )}
    </Card>
  );
}

/** One call ready to show: its open transcript (null when closed or unreadable) and its buttons. */
interface CallView {
  call: Call;
  lines: ReturnType<typeof parseTranscript>;
  actions: ReactNode;
  outcomeColor: string | undefined;
}

function FromTo({ call }: { call: Call }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span title={call.fromNumber}>{formatPhone(call.fromNumber)}</span>
      <ArrowRight className="size-3.5 text-muted-foreground" aria-label="to" />
      <span title={call.toNumber}>{formatPhone(call.toNumber)}</span>
    </span>
  );
}

interface Sorting {
  sort: CallSort;
  order: SortOrder;
  onSort: (sort: CallSort) => void;
}

/** Each column's cell for a call. */
const CELLS: Record<LogColumn, (view: CallView) => ReactNode> = {
  // The call's short reference: the ID the e-mails and the drawer name, found by the search.
  callId: ({ call }) => (
    <TableCell className="whitespace-nowrap" data-testid="call-reference">
      <CopyValue label="call ID" value={call.reference} />
    </TableCell>
  ),
  fromTo: ({ call }) => (
    <TableCell className="whitespace-nowrap">
      <FromTo call={call} />
    </TableCell>
  ),
  duration: ({ call }) => <TableCell className="tabular-nums">{formatDuration(call.duration)}</TableCell>,
  status: ({ call }) => (
    <TableCell>
      <span className="inline-flex items-center gap-1">
        <CallStatusBadge status={call.status} />
        {call.isSample && <SampleBadge />}
      </span>
    </TableCell>
  ),
  pathway: ({ call }) => <TableCell className="whitespace-nowrap">{call.pathway || '—'}</TableCell>,
  created: ({ call }) => (
    <TableCell className="whitespace-nowrap">{formatCallCreated(call.createdAt)}</TableCell>
  ),
  outcome: ({ call, outcomeColor }) => (
    <TableCell>
      <span className="inline-flex flex-col items-start gap-1">
        <OutcomeBadge name={call.outcome} color={outcomeColor} />
        {call.needsAttention && <AttentionBadge />}
      </span>
    </TableCell>
  ),
  quality: ({ call }) => (
    <TableCell className="text-xs">
      <QualityBrief call={call} stacked />
    </TableCell>
  ),
  cost: ({ call }) => <TableCell className="text-right tabular-nums">{formatMoney(call.cost)}</TableCell>,
};

/** The log's compact quality: what stands out, the full sentence for screen readers and as a title. */
function QualityBrief({ call, stacked = false }: { call: Call; stacked?: boolean }) {
  const { text, parts, description } = qualityBriefText(call.qualityBrief);
  return (
    <span data-testid="quality-brief">
      <span aria-hidden="true" title={description} className="tabular-nums">
        {stacked
          ? parts.map((part) => (
              <span key={part} className="block whitespace-nowrap">
                {part}
              </span>
            ))
          : text}
      </span>
      <span className="sr-only">{description}</span>
    </span>
  );
}

function SortHeading({ column, sorting }: { column: LogColumn; sorting?: Sorting }) {
  const sort = SORTABLE[column];
  const label = columnLabel(column, useShowPlatformDetails());
  const align = column === 'cost' ? 'text-right' : undefined;
  if (!sort || !sorting) return <TableHead className={align}>{label}</TableHead>;
  return (
    <SortableHead
      label={label}
      className={align}
      order={sorting.sort === sort ? sorting.order : null}
      onSort={() => sorting.onSort(sort)}
    />
  );
}

function CallTable({
  views,
  columns,
  sorting,
}: {
  views: CallView[];
  columns: readonly LogColumn[];
  sorting?: Sorting;
}) {
  const span = columns.length + 1;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <SortHeading key={c} column={c} sorting={sorting} />
          ))}
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {views.map((view) => {
          const { call, lines, actions } = view;
          const below = !!lines || !!call.snippet;
          return (
            <Fragment key={call.id}>
              <TableRow
                data-testid="call-row"
                data-call-id={call.id}
                className={below ? 'border-b-0' : undefined}
              >
                {columns.map((c) => (
                  <Fragment key={c}>{CELLS[c](view)}</Fragment>
                ))}
                <TableCell>{actions}</TableCell>
              </TableRow>
              {call.snippet && (
                <TableRow className={cn('hover:bg-transparent', lines && 'border-b-0')}>
                  <TableCell colSpan={span} className="whitespace-normal pt-0 pb-3">
                    <SearchSnippet parts={call.snippet} />
                  </TableCell>
                </TableRow>
              )}
              {lines && (
                <TableRow className="bg-muted/40 hover:bg-muted/40">
                  <TableCell colSpan={span} className="whitespace-normal p-2 sm:p-3">
                    <TranscriptPanel lines={lines} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The sort as a select: the phone layout's, and while searching the way to "Best match". */
function SortSelect({
  sort,
  order,
  searching,
  onChange,
}: {
  sort: CallSort;
  order: SortOrder;
  searching: boolean;
  onChange: (change: Partial<CallFilters>) => void;
}) {
  const options: { value: string; label: string }[] = [
    { value: 'created:desc', label: 'Newest first' },
    ...(searching ? [{ value: 'relevance:desc', label: 'Best match' }] : []),
    { value: 'created:asc', label: 'Oldest first' },
    { value: 'duration:desc', label: 'Longest first' },
    { value: 'duration:asc', label: 'Shortest first' },
    { value: 'cost:desc', label: 'Highest cost first' },
    { value: 'cost:asc', label: 'Lowest cost first' },
  ];
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-muted-foreground">Sort</span>
      <NativeSelect
        value={`${sort}:${order}`}
        onChange={(event) => {
          // The option values are built as `${CallSort}:${SortOrder}`
          const [s, o] = event.target.value.split(':') as [CallSort, SortOrder];
          onChange({ sort: s, order: o });
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}

/**
 * The phone layout: one compact card per call, when and who first, then how long, what it cost,
 * its type and outcome; its actions in one menu. Everything else is in the call's details.
 */
function CallCards({ views }: { views: CallView[] }) {
  const showPlatform = useShowPlatformDetails();
  return (
    <ul className="flex flex-col gap-2" aria-label="Calls">
      {views.map(({ call, lines, actions, outcomeColor }) => (
        <li
          key={call.id}
          data-testid="call-card"
          data-call-id={call.id}
          className={cn('rounded-lg border pt-0.5 pr-0.5 pb-2 pl-3', lines && 'bg-muted/40')}
        >
          {/* The menu's row is a finger high; the lines under it use the card's whole width. */}
          <div className="flex items-center gap-2">
            <p className="min-w-0 flex-1 truncate font-medium text-sm">{formatCallCreated(call.createdAt)}</p>
            <span className="flex shrink-0 items-center gap-1">
              <CallStatusBadge status={call.status} />
              {call.isSample && <SampleBadge />}
            </span>
            <div className="flex shrink-0 items-center">{actions}</div>
          </div>
          <div className="pr-2">
            <p className="text-sm">
              <FromTo call={call} />
            </p>
            <dl className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <CardField label="Duration" value={formatDuration(call.duration)} />
              <CardField label="Cost" value={formatMoney(call.cost)} />
              <CardField label={pathwayWords(showPlatform).label} value={call.pathway || '—'} />
              <div className="flex min-w-0 flex-wrap items-center gap-1">
                <dt className="sr-only">Outcome</dt>
                <dd className="flex flex-wrap items-center gap-1">
                  <OutcomeBadge name={call.outcome} color={outcomeColor} />
                  {call.needsAttention && <AttentionBadge />}
                </dd>
              </div>
              <div className="flex min-w-0 items-center gap-1">
                <dt className="text-muted-foreground text-xs">Call ID</dt>
                <dd data-testid="call-reference">
                  <CopyValue label="call ID" value={call.reference} />
                </dd>
              </div>
            </dl>
          </div>
          {call.snippet && <SearchSnippet parts={call.snippet} className="mt-2 pr-2" />}
          {lines && (
            <div className="mt-2 pr-2">
              <TranscriptPanel lines={lines} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Sample data the client added to try the dashboard, never a call anybody made. */
function SampleBadge() {
  return (
    <Badge
      variant="outline"
      className="border-dashed"
      data-testid="sample-badge"
      title="Sample data: free, not a real call"
    >
      Sample
    </Badge>
  );
}

/** A card's figure: its name said to screen readers, the value alone seen (its form says which). */
function CardField({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="sr-only">{label}</dt>
      <dd className="truncate text-muted-foreground tabular-nums">{value}</dd>
    </div>
  );
}

function TableSkeleton() {
  return (
    <div className="flex flex-col gap-3" data-testid="calls-loading">
      <Skeleton className="h-8 w-full" />
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}
