/**
 * The outcomes strip under the stats: what the window's calls were worth, then one
 * card per outcome with its count, share of calls, value and change. A card filters the call log
 * to its outcome (and a second press clears it).
 */

import { QueryView } from '../../components/query-view';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/utils';
import type { CallSource } from './call-source';
import type { AnalyticsScope } from './filters';
import { buildOutcomeCards, type OutcomeCard, valueHeadline } from './outcome-cards';
import { useOutcomeSummary } from './queries';

const TREND_CLASS: Record<OutcomeCard['trend'], string> = {
  good: 'text-green-700',
  bad: 'text-red-700',
  flat: 'text-muted-foreground',
  none: 'text-muted-foreground',
};
const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6';
/** As many placeholders as a client's default outcomes, so the strip keeps its rows when they arrive. */
const PLACEHOLDER_CARDS = [0, 1, 2, 3, 4];

export interface OutcomesStripProps {
  source: CallSource;
  scope: AnalyticsScope;
  /** The outcome the call log is filtered to ('all' for none). */
  selected: string;
  onSelect: (outcome: string) => void;
}

export function OutcomesStrip({ source, scope, selected, onSelect }: OutcomesStripProps) {
  const query = useOutcomeSummary(source, scope);
  return (
    <section aria-label="Outcomes" className="flex flex-col gap-3" data-testid="outcomes-strip">
      <QueryView
        query={query}
        what="the outcomes"
        loading={
          <>
            <h3 className="font-semibold text-lg">Outcomes</h3>
            <div className={GRID} data-testid="outcomes-loading">
              {PLACEHOLDER_CARDS.map((i) => (
                <Skeleton key={i} className="h-[104px] rounded-xl" />
              ))}
            </div>
          </>
        }
        isEmpty={(summary) => !summary || summary.every((s) => s.count === 0)}
        empty={
          <>
            <h3 className="font-semibold text-lg">Outcomes</h3>
            <p className="text-muted-foreground text-sm">No calls in this period yet.</p>
          </>
        }
      >
        {(summary) => {
          const headline = valueHeadline(summary);
          return (
            <>
              <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
                <h3 className="font-semibold text-lg">Outcomes</h3>
                {headline && (
                  <p className="text-sm" data-testid="outcomes-value">
                    <span className="font-semibold text-base tabular-nums">{headline.total}</span>{' '}
                    <span className="text-muted-foreground">{headline.text}</span>
                  </p>
                )}
              </div>
              <ul className={GRID}>
                {buildOutcomeCards(summary).map((card) => (
                  <li key={card.name}>
                    <OutcomeCardView
                      card={card}
                      pressed={selected === card.name}
                      onPress={() => onSelect(selected === card.name ? 'all' : card.name)}
                    />
                  </li>
                ))}
              </ul>
            </>
          );
        }}
      </QueryView>
    </section>
  );
}

function OutcomeCardView({
  card,
  pressed,
  onPress,
}: {
  card: OutcomeCard;
  pressed: boolean;
  onPress: () => void;
}) {
  return (
    <Card
      className={cn(
        'h-full gap-0 py-0 transition-colors hover:bg-muted/50',
        pressed && 'ring-2 ring-primary-text',
      )}
      data-testid="outcome-card"
      data-outcome={card.name}
    >
      <button
        type="button"
        className="flex h-full w-full flex-col gap-1.5 rounded-xl px-4 py-3 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-pressed={pressed}
        title={pressed ? 'Show calls of every outcome' : `Show only "${card.name}" calls in the log`}
        onClick={onPress}
      >
        <span className="flex items-center gap-2">
          <span
            className="size-2.5 shrink-0 rounded-full"
            style={{ background: card.color }}
            aria-hidden="true"
          />
          <span className="line-clamp-2 break-words font-medium text-muted-foreground text-sm">
            {card.name}
          </span>
        </span>
        <span className="flex items-baseline gap-2">
          <span className="font-bold text-2xl tabular-nums" data-testid="outcome-count">
            {card.count}
          </span>
          <span className="text-muted-foreground text-xs">{card.share}</span>
        </span>
        {card.value && (
          <span className="font-medium text-sm tabular-nums" data-testid="outcome-value">
            {card.value}
          </span>
        )}
        <span className="text-muted-foreground text-xs">
          <span
            className={cn('font-medium', TREND_CLASS[card.trend])}
            data-testid="outcome-change"
            data-trend={card.trend}
          >
            {card.change}
          </span>{' '}
          {card.changeLabel}
        </span>
      </button>
    </Card>
  );
}
