/**
 * "Live" while the view's event stream is open, "Reconnecting…" while it is not. The
 * badge sits in a box as wide as its longest label, so "Connecting…" turning into "Live" never
 * changes what fits on the heading's line (on a phone it moved the page up by a line).
 */
import { cn } from '../../lib/utils';
import type { LiveState } from './use-live-calls';

const LONGEST_LABEL = 'Reconnecting…';

export function LiveIndicator({ state }: { state: LiveState | null }) {
  if (state === null) return null;
  const live = state === 'live';
  const badge =
    'col-start-1 row-start-1 inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 font-medium text-xs';
  return (
    <span className="inline-grid">
      <span aria-hidden="true" className={cn(badge, 'invisible')}>
        <span className="size-2" />
        {LONGEST_LABEL}
      </span>
      <span
        role="status"
        data-testid="live-indicator"
        className={cn(
          badge,
          'justify-self-start',
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
    </span>
  );
}
