/**
 * What the calls achieved, as every calls page shows it: the outcomes strip, the
 * calls and outcomes charts side by side, and "Needs attention". The page owns the filters and
 * the drawer; cards filter the log, "Open" opens the drawer.
 */
import { forwardRef } from 'react';
import { AttentionPanel } from './attention-panel';
import type { CallSource } from './call-source';
import { CallsOverTimeCard } from './calls-over-time-card';
import { type CallFilters, narrowTo } from './filters';
import { OutcomesOverTimeCard } from './outcomes-over-time-card';
import { OutcomesStrip } from './outcomes-strip';
import { useOutcomeSummary } from './queries';

/**
 * The client's outcome names for the filter bar (from the summary the strip reads anyway). None
 * yet while it loads: the bar already shows the outcome filter and "Needs attention only" then,
 * so they do not appear late and move the filters beside them.
 */
export function useOutcomeNames(source: CallSource, filters: CallFilters): string[] | undefined {
  const summary = useOutcomeSummary(source, filters);
  return summary.isPending ? [] : summary.data?.map((o) => o.name);
}

export interface OutcomeInsightsProps {
  source: CallSource;
  filters: CallFilters;
  onChange: (change: Partial<CallFilters>) => void;
  onOpenCall: (callId: string) => void;
  /** Whether the calls chart is shown here (the demo places it beside its recent activity). */
  withCallsChart?: boolean;
}

/** The ref is the "Needs attention" panel: the header's badge moves the focus there. */
export const OutcomeInsights = forwardRef<HTMLDivElement, OutcomeInsightsProps>(function OutcomeInsights(
  { source, filters, onChange, onOpenCall, withCallsChart = true },
  attentionRef,
) {
  const narrow = (change: Partial<CallFilters>) => onChange(narrowTo(filters, change));
  return (
    <>
      <OutcomesStrip
        source={source}
        scope={filters}
        selected={filters.outcome}
        onSelect={(outcome) => (outcome === 'all' ? onChange({ outcome }) : narrow({ outcome }))}
      />
      {withCallsChart ? (
        <div className="grid min-w-0 gap-4 sm:gap-6 lg:grid-cols-2">
          <CallsOverTimeCard source={source} scope={filters} />
          <OutcomesOverTimeCard source={source} scope={filters} />
        </div>
      ) : (
        <OutcomesOverTimeCard source={source} scope={filters} />
      )}
      <AttentionPanel
        ref={attentionRef}
        source={source}
        onOpenCall={onOpenCall}
        onShowAll={() => narrow({ attention: true })}
      />
    </>
  );
});
