/** Total Calls, Total Cost, Avg Duration, Total Transfers with their change "vs last period". */
import { Clock, DollarSign, Phone, PhoneForwarded } from 'lucide-react';
import { QueryView } from '../../components/query-view';
import { Card, CardContent } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/utils';
import type { CallSource } from './call-source';
import type { AnalyticsScope } from './filters';
import { useCallStats } from './queries';
import { buildStatCards, hasStats, type StatCard } from './stat-cards';

const ICONS: Record<StatCard['key'], typeof Phone> = {
  totalCalls: Phone,
  totalCost: DollarSign,
  avgDuration: Clock,
  totalTransfers: PhoneForwarded,
};

const TREND_CLASS: Record<StatCard['trend'], string> = {
  up: 'text-green-700',
  down: 'text-red-700',
  none: 'text-muted-foreground',
};

const GRID = 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4';

export function CallStatsStrip({ source, scope }: { source: CallSource; scope: AnalyticsScope }) {
  const query = useCallStats(source, scope);
  return (
    <section aria-label="Summary statistics" data-testid="stats-strip">
      <QueryView
        query={query}
        what="the statistics"
        loading={
          <div className={GRID} data-testid="stats-loading">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-[116px] rounded-xl" />
            ))}
          </div>
        }
        isEmpty={(stats) => !hasStats(stats)}
        empty={
          <Card className="py-6">
            <CardContent className="text-center text-muted-foreground">No data available</CardContent>
          </Card>
        }
      >
        {(stats) => (
          <div className={GRID}>
            {buildStatCards(stats).map((card) => (
              <StatCardView key={card.key} card={card} />
            ))}
          </div>
        )}
      </QueryView>
    </section>
  );
}

function StatCardView({ card }: { card: StatCard }) {
  const Icon = ICONS[card.key];
  return (
    <Card className="gap-2 py-4" data-testid={`stat-${card.key}`}>
      <CardContent className="flex flex-col gap-2 px-4">
        <div className="flex items-center justify-between gap-2">
          <h3 className="truncate font-medium text-muted-foreground text-sm">{card.title}</h3>
          <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        </div>
        <p className="truncate font-bold text-2xl tabular-nums" data-testid="stat-value">
          {card.value}
        </p>
        <p className="text-muted-foreground text-xs">
          <span
            data-testid="stat-change"
            data-trend={card.trend}
            // 700 shades: the 600s are under WCAG AA's 4.5:1 on white at this size.
            className={cn('font-medium', TREND_CLASS[card.trend])}
          >
            {card.change}
          </span>{' '}
          {card.changeLabel}
        </p>
      </CardContent>
    </Card>
  );
}
