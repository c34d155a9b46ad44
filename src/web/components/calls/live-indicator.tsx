/** "Live" while the view's event stream is open, "Reconnecting…" while it is not (issue 17). */
import { cn } from '../../lib/utils';
import type { LiveState } from './use-live-calls';

export function LiveIndicator({ state }: { state: LiveState | null }) {
  if (state === null) return null;
  const live = state === 'live';
  return (
    <span
      role="status"
      data-testid="live-indicator"
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 font-medium text-xs',
        live
          ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
          : 'border-amber-200 bg-amber-50 text-amber-900',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 rounded-full',
          live ? 'bg-emerald-500 motion-safe:animate-pulse' : 'bg-amber-500',
        )}
      />
      {live ? 'Live' : state === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
    </span>
  );
}
