/**
 * The Quality tab's cards (issue 39) as display-ready values: each metric's median and p90 over
 * the period's calls, and the median's change against the period before, coloured by which
 * direction is better where one is (a slower answer is worse; more agent talk is neither).
 */
import {
  DEAD_AIR_MS,
  type MetricFigures,
  type QualityMetric,
  type QualitySummary,
  SILENCE_MS,
} from '../../../../contract/quality';
import { formatCount } from '../../../../contract/format';
import { formatMetric, formatMetricChange, formatMs } from './quality-format';

/** better/worse: the median moved that way; same: it did not; neutral: no direction is better; none: nothing to compare. */
export type QualityTrend = 'better' | 'worse' | 'same' | 'neutral' | 'none';

export interface QualityCard {
  metric: QualityMetric;
  title: string;
  /** What the figure is, in a sentence. */
  hint: string;
  median: string;
  p90: string;
  /** "−0.5 s", "+1", "no change"; "—" without an earlier median. */
  change: string;
  trend: QualityTrend;
  /** Calls the figure is measured over. */
  calls: number;
}

type Direction = 'lower' | 'none';

const CARDS: { metric: QualityMetric; title: string; hint: string; better: Direction }[] = [
  {
    metric: 'responseLatencyP50Ms',
    title: 'Response time',
    hint: 'A call’s typical answer: from the caller stopping to the agent starting.',
    better: 'lower',
  },
  {
    metric: 'responseLatencyP90Ms',
    title: 'Slow answers',
    hint: 'A call’s slow answers: its 90th-percentile response time.',
    better: 'lower',
  },
  {
    metric: 'interruptionsCaller',
    title: 'Caller interruptions',
    hint: 'Times in a call the caller had to speak over the agent.',
    better: 'lower',
  },
  {
    metric: 'deadAirLongestMs',
    title: 'Longest dead air',
    hint: `A call’s longest gap of ${formatMs(DEAD_AIR_MS)} or more where nobody spoke.`,
    better: 'lower',
  },
  {
    metric: 'silencePct',
    title: 'Silence',
    hint: `Share of a call in gaps over ${formatMs(SILENCE_MS)}.`,
    better: 'lower',
  },
  {
    metric: 'agentTalkPct',
    title: 'Agent talk',
    hint: 'Share of a call the agent was speaking.',
    better: 'none',
  },
  {
    metric: 'talkListenRatio',
    title: 'Talk/listen ratio',
    hint: 'The agent’s speaking time over the caller’s.',
    better: 'none',
  },
];

export const QUALITY_CARD_METRICS = CARDS.map((c) => c.metric);

const EMPTY: MetricFigures = { median: null, p90: null, calls: 0 };

function trendOf(difference: number, change: string, better: Direction): QualityTrend {
  if (change === 'no change') return 'same';
  if (better === 'none') return 'neutral';
  return difference < 0 ? 'better' : 'worse';
}

export function buildQualityCards(summary: Pick<QualitySummary, 'current' | 'previous'>): QualityCard[] {
  return CARDS.map(({ metric, title, hint, better }) => {
    const now = summary.current.metrics[metric] ?? EMPTY;
    const before = summary.previous.metrics[metric] ?? EMPTY;
    const card = {
      metric,
      title,
      hint,
      median: formatMetric(metric, now.median),
      p90: formatMetric(metric, now.p90),
      calls: now.calls,
    };
    if (now.median === null || before.median === null) return { ...card, change: '—', trend: 'none' };
    const difference = now.median - before.median;
    const change = formatMetricChange(metric, difference);
    return { ...card, change, trend: trendOf(difference, change, better) };
  });
}

/** The words beside a change, so the colour is never the only sign of which way it went. */
export const TREND_WORDS: Record<QualityTrend, string> = {
  better: 'better than the previous period',
  worse: 'worse than the previous period',
  same: 'from the previous period',
  neutral: 'against the previous period',
  none: 'no earlier calls to compare with',
};

/** Whether the period has anything to show: a call measured in it (any precision). */
export function hasMeasuredCalls(summary: Pick<QualitySummary, 'current'>): boolean {
  return summary.current.calls > 0;
}

/** While the calls stored before quality arrived are measured (the backfill's progress). */
export function measuringText(measuring: { done: number; total: number }): string {
  return `Measuring earlier calls: ${formatCount(measuring.done)} of ${formatCount(measuring.total)}. Their figures join the period’s as they are measured.`;
}
