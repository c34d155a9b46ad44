/**
 * The Quality tab's cards as display-ready values: each metric's median and p90 over
 * the period's calls, and the median's change against the period before, coloured by which
 * direction is better where one is (a slower answer is worse; more agent talk is neither).
 */

import { formatCount } from '../../../../contract/format';
import {
  DEAD_AIR_MS,
  type MetricFigures,
  QUALITY_METRIC_TABLE,
  type QualityDirection,
  type QualityMetric,
  type QualitySummary,
  SILENCE_MS,
} from '../../../../contract/quality';
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

/** The metrics with a card and what each figure is; name, unit and direction: the contract's table. */
const CARDS: { metric: QualityMetric; hint: string }[] = [
  {
    metric: 'responseLatencyP50Ms',
    hint: 'How long the agent took to start answering once the caller stopped.',
  },
  {
    metric: 'responseLatencyP90Ms',
    hint: 'In a call, 9 answers in 10 came within this time; the slowest 1 in 10 took longer.',
  },
  {
    metric: 'interruptionsCaller',
    hint: 'Times in a call the caller had to speak over the agent.',
  },
  {
    metric: 'deadAirLongestMs',
    hint: `A call’s longest gap of ${formatMs(DEAD_AIR_MS)} or more where nobody spoke.`,
  },
  {
    metric: 'silencePct',
    hint: `Share of a call spent in silences longer than ${formatMs(SILENCE_MS)}.`,
  },
  {
    metric: 'agentTalkPct',
    hint: 'Share of a call the agent was speaking (50%: half the time).',
  },
  {
    metric: 'talkListenRatio',
    hint: 'Seconds the agent spoke for each second the caller spoke (1.00: as much as the caller).',
  },
];

export const QUALITY_CARD_METRICS = CARDS.map((c) => c.metric);

const EMPTY: MetricFigures = { median: null, p90: null, calls: 0 };

function trendOf(difference: number, change: string, better: QualityDirection): QualityTrend {
  if (change === 'no change') return 'same';
  if (better === 'none') return 'neutral';
  return difference < 0 ? 'better' : 'worse';
}

/**
 * The cards; with the client's slow-answer threshold (`slowAnswerMs`, null when that check is
 * off), the slow answers' card says in seconds from when a call needs attention.
 */
export function buildQualityCards(
  summary: Pick<QualitySummary, 'current' | 'previous'>,
  slowAnswerMs: number | null = null,
): QualityCard[] {
  return CARDS.map(({ metric, ...rest }) => {
    const { label: title, better } = QUALITY_METRIC_TABLE[metric];
    const hint =
      metric === 'responseLatencyP90Ms' && slowAnswerMs !== null
        ? `${rest.hint} From ${formatMs(slowAnswerMs)} a call needs attention.`
        : rest.hint;
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
