/**
 * "Recent Call Logs": the call table with its row actions (play, download, transcript, delete),
 * the expanded transcript, pagination and the delete dialog. What the rows may do comes from the
 * source: no delete URL, no delete button.
 */
import { ArrowRight, Download, FileText, Loader2, Play, Square, Trash2 } from 'lucide-react';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import type { Call, CallsPage } from '../../../contract/calls';
import { formatCallCreated, formatDuration } from '../../../contract/format';
import type { CallSource } from '../../features/calls/call-source';
import { useDeleteCall } from '../../features/calls/mutations';
import { useCalls } from '../../features/calls/queries';
import { cn } from '../../lib/utils';
import { QueryView } from '../query-view';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card';
import { Skeleton } from '../ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table';
import { CallPagination } from './call-pagination';
import { CallStatusBadge } from './call-status-badge';
import { DeleteCallDialog } from './delete-call-dialog';
import { downloadRecording } from './download-recording';
import type { CallFilters } from './filters';
import { TranscriptPanel } from './transcript-panel';
import { parseTranscript } from './transcript';
import { useCallPlayback } from './use-call-playback';

export const EMPTY_CALLS_TEXT = 'No call logs found. Click the sync button to fetch data from Bland AI.';
const COLUMNS = ['Call ID', 'From/To', 'Duration', 'Status', 'Pathway', 'Created', 'Actions'];

export interface CallLogTableProps {
  source: CallSource;
  filters: CallFilters;
  onPageChange: (page: number) => void;
  /** Shown when no call matches; defaults to the dashboard's text, which points at the sync button. */
  emptyText?: string;
  /** Extra content at the right of the card title (a search box, say). */
  headerAction?: ReactNode;
}

export function CallLogTable({
  source,
  filters,
  onPageChange,
  emptyText = EMPTY_CALLS_TEXT,
  headerAction,
}: CallLogTableProps) {
  const query = useCalls(source, filters);
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [pendingDeleteId, setPendingDeleteId] = useState<string | null>(null);
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  const playback = useCallPlayback(source.recordingUrl);
  const deleteCall = useDeleteCall(source);

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
    await downloadRecording(source.downloadUrl(call.id), call.id);
    setDownloadingId(null);
  };

  const confirmDelete = (callId: string) =>
    deleteCall.mutate(callId, {
      onSettled: () => setPendingDeleteId(null),
      onSuccess: () => setExpandedId((open) => (open === callId ? null : open)),
    });

  return (
    <Card className="min-w-0 gap-4" data-testid="call-log">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <CardTitle className="text-lg">Recent Call Logs</CardTitle>
        {headerAction}
      </CardHeader>
      <CardContent className="min-w-0 px-3 sm:px-6">
        <audio {...playback.audioProps} className="hidden" data-testid="call-audio" />
        <QueryView<CallsPage>
          query={query}
          what="the call logs"
          loading={<TableSkeleton />}
          isEmpty={(page) => !page || page.calls.length === 0}
          empty={<p className="py-10 text-center text-muted-foreground text-sm">{emptyText}</p>}
        >
          {(page) => (
            <>
              <Table className={cn(query.isPlaceholderData && 'opacity-60')}>
                <TableHeader>
                  <TableRow>
                    {COLUMNS.map((c) => (
                      <TableHead key={c} className={c === 'Actions' ? 'text-right' : undefined}>
                        {c}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {page.calls.map((call) => {
                    const lines = parseTranscript(call.transcript);
                    const expanded = expandedId === call.id && lines !== null;
                    return (
                      <Fragment key={call.id}>
                        <TableRow
                          data-testid="call-row"
                          data-call-id={call.id}
                          className={expanded ? 'border-b-0 bg-muted/40' : undefined}
                        >
                          <TableCell className="max-w-[8.5rem] truncate font-mono text-xs" title={call.id}>
                            {call.id}
                          </TableCell>
                          <TableCell className="whitespace-nowrap">
                            <span className="inline-flex items-center gap-1.5">
                              <span>{call.fromNumber || '—'}</span>
                              <ArrowRight className="size-3.5 text-muted-foreground" aria-label="to" />
                              <span>{call.toNumber || '—'}</span>
                            </span>
                          </TableCell>
                          <TableCell className="tabular-nums">{formatDuration(call.duration)}</TableCell>
                          <TableCell>
                            <CallStatusBadge status={call.status} />
                          </TableCell>
                          <TableCell className="whitespace-nowrap">{call.pathway || '—'}</TableCell>
                          <TableCell className="whitespace-nowrap">
                            {formatCallCreated(call.createdAt)}
                          </TableCell>
                          <TableCell>
                            <div className="flex items-center justify-end gap-0.5">
                              {source.recordingUrl && (
                                <PlayButton
                                  status={playback.statusOf(call.id)}
                                  disabled={!call.recordingUrl}
                                  onClick={() => playback.toggle(call.id)}
                                />
                              )}
                              {source.downloadUrl && (
                                <Button
                                  variant="ghost"
                                  size="icon"
                                  aria-label="Download recording"
                                  title={call.recordingUrl ? 'Download recording' : 'No recording'}
                                  disabled={!call.recordingUrl || downloadingId === call.id}
                                  onClick={() => download(call)}
                                >
                                  <Download />
                                </Button>
                              )}
                              {lines !== null && (
                                <Button
                                  variant={expanded ? 'secondary' : 'ghost'}
                                  size="icon"
                                  aria-label={expanded ? 'Hide transcript' : 'Show transcript'}
                                  aria-expanded={expanded}
                                  title={expanded ? 'Hide transcript' : 'Show transcript'}
                                  onClick={() => setExpandedId(expanded ? null : call.id)}
                                >
                                  <FileText />
                                </Button>
                              )}
                              {source.deleteUrl && (
                                <Button
                                  variant="ghost"
                                  size="icon"
                                  aria-label="Delete call"
                                  title="Delete call"
                                  className="text-destructive hover:text-destructive"
                                  onClick={() => setPendingDeleteId(call.id)}
                                >
                                  <Trash2 />
                                </Button>
                              )}
                            </div>
                          </TableCell>
                        </TableRow>
                        {expanded && (
                          <TableRow className="bg-muted/40 hover:bg-muted/40">
                            <TableCell colSpan={COLUMNS.length} className="whitespace-normal p-2 sm:p-3">
                              {/* Pinned to the visible width, so a phone reads it without scrolling sideways. */}
                              <div className="sticky left-0 max-w-[calc(100vw-4rem)] sm:max-w-none">
                                <TranscriptPanel lines={lines} />
                              </div>
                            </TableCell>
                          </TableRow>
                        )}
                      </Fragment>
                    );
                  })}
                </TableBody>
              </Table>
              <CallPagination pagination={page.pagination} onPageChange={onPageChange} />
            </>
          )}
        </QueryView>
      </CardContent>
      {source.deleteUrl && (
        <DeleteCallDialog
          callId={pendingDeleteId}
          pending={deleteCall.isPending}
          onCancel={() => setPendingDeleteId(null)}
          onConfirm={confirmDelete}
        />
      )}
    </Card>
  );
}

function PlayButton({
  status,
  disabled,
  onClick,
}: {
  status: 'idle' | 'loading' | 'playing';
  disabled: boolean;
  onClick: () => void;
}) {
  const label =
    status === 'playing' ? 'Stop recording' : status === 'loading' ? 'Loading recording' : 'Play recording';
  return (
    <Button
      variant={status === 'idle' ? 'ghost' : 'secondary'}
      size="icon"
      aria-label={label}
      title={disabled ? 'No recording' : label}
      data-playback={status}
      disabled={disabled}
      onClick={onClick}
    >
      {status === 'playing' ? (
        <Square />
      ) : status === 'loading' ? (
        <Loader2 className="animate-spin" />
      ) : (
        <Play />
      )}
    </Button>
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
