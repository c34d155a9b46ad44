/** The Quality tab's figures: each metric's median and p90 with its change, in words and colour. */
import { AudioLines, Gauge, Hourglass, MessageSquareWarning, Mic, Scale, Timer } from 'lucide-react';
import type { QualityMetric, QualitySummary } from '../../../../contract/quality';
import { Card, CardContent } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { buildQualityCards, type QualityCard, type QualityTrend, TREND_WORDS } from './quality-cards';

const ICONS: Partial<Record<QualityMetric, typeof Timer>> = {
  responseLatencyP50Ms: Timer,
  responseLatencyP90Ms: Hourglass,
  interruptionsCaller: MessageSquareWarning,
  deadAirLongestMs: AudioLines,
  silencePct: Gauge,
  agentTalkPct: Mic,
  talkListenRatio: Scale,
};

// 700 shades: the 600s are under WCAG AA's 4.5:1 on white at this size.
const TREND_CLASS: Record<QualityTrend, string> = {
  better: 'text-green-700',
  worse: 'text-red-700',
  same: 'text-muted-foreground',
  neutral: 'text-foreground',
  none: 'text-muted-foreground',
};

export function QualityMetricCards({
  summary,
  slowAnswerMs = null,
}: {
  summary: QualitySummary;
  /** The client's slow-answer threshold, said on the slow answers' card. */
  slowAnswerMs?: number | null;
}) {
  return (
    <ul
      className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 sm:gap-4 lg:grid-cols-4"
      aria-label="Figures"
    >
      {buildQualityCards(summary, slowAnswerMs).map((card) => (
        <li key={card.metric} className="min-w-0">
          <QualityCardView card={card} />
        </li>
      ))}
    </ul>
  );
}

function QualityCardView({ card }: { card: QualityCard }) {
  const Icon = ICONS[card.metric] ?? Gauge;
  return (
    <Card className="h-full gap-2 py-4" data-testid={`quality-card-${card.metric}`}>
      <CardContent className="flex h-full flex-col gap-2 px-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 break-words font-medium text-muted-foreground text-sm">{card.title}</h3>
          <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        </div>
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-bold text-2xl tabular-nums" data-testid="quality-median">
            {card.median}
          </span>
          <span
            className="text-muted-foreground text-xs"
            title="The median: half the calls are above, half below"
          >
            in a typical call
          </span>
        </p>
        <p className="text-sm" title="The 90th percentile: 1 call in 10 was at this figure or above">
          <span className="text-muted-foreground">1 call in 10: </span>
          <span className="font-medium tabular-nums" data-testid="quality-p90">
            {card.p90}
          </span>
          <span className="text-muted-foreground"> or more</span>
        </p>
        <p className="text-xs">
          <span
            className={cn('font-medium tabular-nums', TREND_CLASS[card.trend])}
            data-testid="quality-change"
            data-trend={card.trend}
          >
            {card.change}
          </span>{' '}
          <span className="text-muted-foreground">{TREND_WORDS[card.trend]}</span>
        </p>
        <p className="mt-auto text-muted-foreground text-xs">{card.hint}</p>
      </CardContent>
    </Card>
  );
}
