/** A client's sync history (Support Tools): each sync, who started it, what it found; and "Sync now". */
import { useState } from 'react';
import type { SyncRun } from '../../../contract/agency';
import { formatCallCreated } from '../../../contract/format';
import { PendingButton } from '../../components/pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { CallPagination } from '../calls/call-pagination';
import { SyncProgressStatus } from '../calls/sync-progress-status';
import { useSyncClient, useSyncRuns } from './console-queries';

const seconds = (ms: number | null) => (ms === null ? 'running' : `${(ms / 1000).toFixed(1)} s`);

/** Provider errors retried, per status: "429 ×3, 503 ×1"; a dash when none. */
export function retriedText(retried: Record<string, number>): string {
  const entries = Object.entries(retried).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '—' : entries.map(([status, n]) => `${status} ×${n}`).join(', ');
}

function resultText(run: SyncRun): string {
  if (run.status === 'running') return 'Running';
  if (run.error) return run.error;
  return run.unfetched > 0 ? `${run.unfetched} details left for the next sync` : 'OK';
}

export function SyncHistoryCard({ clientId, hasKey }: { clientId: string; hasKey: boolean }) {
  const [page, setPage] = useState(1);
  const runs = useSyncRuns(clientId, page);
  const sync = useSyncClient();

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1.5">
          <CardTitle>Sync history</CardTitle>
          <CardDescription>Calls pulled from the provider, newest first</CardDescription>
        </div>
        <PendingButton
          size="sm"
          variant="outline"
          disabled={!hasKey}
          title={hasKey ? undefined : 'The client has no API key to sync with'}
          pending={sync.isPending}
          pendingLabel="Syncing…"
          onClick={() =>
            sync.mutate(clientId, {
              onSuccess: (result) => toast({ title: 'Sync finished', description: result.message }),
              onError: (error) => failureToast('Sync failed', error),
            })
          }
        >
          Sync now
        </PendingButton>
        <SyncProgressStatus
          progress={sync.progress}
          className="basis-full text-right"
          testId="admin-sync-progress"
        />
      </CardHeader>
      <CardContent>
        {runs.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : runs.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The sync history could not be loaded.
          </p>
        ) : runs.data.items.length === 0 ? (
          <p className="py-4 text-center text-muted-foreground text-sm">No sync yet.</p>
        ) : (
          <Table aria-label="Sync history" scrollLabel="Sync history, scrollable">
            <TableHeader>
              <TableRow>
                <TableHead>Started</TableHead>
                <TableHead>By</TableHead>
                <TableHead className="text-right">New</TableHead>
                <TableHead className="text-right">Updated</TableHead>
                <TableHead>Took</TableHead>
                <TableHead title="Provider errors answered, then retried, per HTTP status">Retried</TableHead>
                <TableHead>Result</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {runs.data.items.map((run) => (
                <TableRow key={run.id}>
                  <TableCell className="whitespace-nowrap">{formatCallCreated(run.startedAt)}</TableCell>
                  <TableCell>{run.startedBy}</TableCell>
                  <TableCell className="text-right tabular-nums">{run.created}</TableCell>
                  <TableCell className="text-right tabular-nums">{run.updated}</TableCell>
                  <TableCell className="whitespace-nowrap">{seconds(run.durationMs)}</TableCell>
                  <TableCell className="min-w-20 text-sm tabular-nums">{retriedText(run.retried)}</TableCell>
                  <TableCell
                    className={cn(
                      'text-sm',
                      run.status === 'failed' && 'min-w-40 text-destructive',
                      run.status === 'interrupted' && 'min-w-40 text-amber-700 dark:text-amber-400',
                    )}
                  >
                    {run.status === 'interrupted' && <span className="font-medium">Interrupted. </span>}
                    {run.status === 'interrupted'
                      ? run.error?.replace(/^Interrupted: /, '')
                      : resultText(run)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <CallPagination pagination={runs.data?.pagination} onPageChange={setPage} />
      </CardContent>
    </Card>
  );
}
