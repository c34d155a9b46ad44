/** "Syncing: N calls read" beside a sync button while a long sync runs on in the background. */
import type { SyncProgress } from '../../../contract/calls';
import { cn } from '../../lib/utils';

export function SyncProgressStatus({
  progress,
  className,
  testId,
}: {
  progress: SyncProgress | null;
  className?: string;
  testId: string;
}) {
  if (!progress) return null;
  return (
    <span
      role="status"
      className={cn('text-muted-foreground text-sm tabular-nums', className)}
      data-testid={testId}
    >
      Syncing: {progress.fetched.toLocaleString('en-US')} calls read
    </span>
  );
}
