/**
 * One call's conversation quality as the drawer shows it: one line first (a verdict in
 * plain words and two or three figures), then, behind "Details", every figure the call's timing
 * could measure, labelled in plain words. A figure that could not be measured is left out (never
 * a row of "—"), and a note says why some are missing. Pure.
 */
import type { CallQuality, EndedBy } from '../../../../contract/quality';
import { QUALITY_METRIC_TABLE, type QualityThresholdValues } from '../../../../contract/quality-metrics';
import { formatMs, formatPct, formatTimes, NO_FIGURE, PRECISION_TEXTS } from './quality-format';

export interface QualityFigure {
  key: string;
  label: string;
  value: string;
}

export const ENDED_BY_LABELS: Record<EndedBy, string> = {
  agent: 'The AI agent',
  caller: 'The caller',
  system: 'The platform',
  transfer: 'A transfer',
  unknown: 'Unknown',
};

export const APPROX_NOTE =
  'Only the order of this call’s lines is known, not when each was spoken, so answer times, interruptions, dead air and talk shares cannot be measured.';
export const NOTHING_TO_MEASURE_NOTE =
  'Some figures are missing: there was nothing to measure (no answer followed the caller, or the caller never spoke).';

/** The agent's talk against the caller's, said as a comparison ("2.1× as long as the caller"). */
export function talkComparison(ratio: number): string {
  if (ratio >= 0.95 && ratio <= 1.05) return 'about as long as the caller';
  return ratio > 1
    ? `${Number(ratio.toFixed(1))}× as long as the caller`
    : `${Math.round(ratio * 100)}% as long as the caller`;
}

export function callQualityFigures(quality: CallQuality): { figures: QualityFigure[]; note: string | null } {
  const latency = quality.responseLatencyMs;
  const all: QualityFigure[] = [
    { key: 'latency-p50', label: 'Typical answer time', value: formatMs(latency?.p50) },
    { key: 'latency-p90', label: '9 answers in 10 came within', value: formatMs(latency?.p90) },
    { key: 'latency-max', label: 'Slowest answer', value: formatMs(latency?.max) },
    {
      key: 'interruptions-caller',
      label: 'Caller interrupted the agent',
      value: formatTimes(quality.interruptions?.caller),
    },
    {
      key: 'interruptions-agent',
      label: QUALITY_METRIC_TABLE.interruptionsAgent.label,
      value: formatTimes(quality.interruptions?.agent),
    },
    {
      key: 'dead-air-count',
      label: 'Dead air (nobody speaking)',
      value: formatTimes(quality.deadAir?.count),
    },
    {
      key: 'dead-air-longest',
      label: 'Longest dead air',
      value: quality.deadAir ? formatMs(quality.deadAir.longestMs) : NO_FIGURE,
    },
    { key: 'silence', label: 'Time in long silences', value: formatPct(quality.silencePct) },
    {
      key: 'agent-talk',
      label: 'Agent talked',
      value: quality.agentTalkPct === null ? NO_FIGURE : `${formatPct(quality.agentTalkPct)} of the time`,
    },
    {
      key: 'talk-listen',
      label: 'Agent talk vs. caller talk',
      value: quality.talkListenRatio === null ? NO_FIGURE : talkComparison(quality.talkListenRatio),
    },
    {
      key: 'monologue',
      label: QUALITY_METRIC_TABLE.longestMonologueMs.label,
      value: formatMs(quality.longestMonologueMs),
    },
    { key: 'turns', label: QUALITY_METRIC_TABLE.turns.label, value: String(quality.turns) },
    { key: 'ended-by', label: 'Ended by', value: ENDED_BY_LABELS[quality.endedBy] },
    { key: 'escalated', label: 'Passed to a person', value: quality.escalated ? 'Yes' : 'No' },
    ...(quality.sentiment ? [{ key: 'sentiment', label: 'Caller’s mood', value: quality.sentiment }] : []),
    { key: 'precision', label: 'Timing', value: PRECISION_TEXTS[quality.precision].label },
  ];
  const figures = all.filter((f) => f.value !== NO_FIGURE);
  const missing = figures.length < all.length;
  const note = quality.precision === 'approx' ? APPROX_NOTE : missing ? NOTHING_TO_MEASURE_NOTE : null;
  return { figures, note };
}

/** good: nothing went past a threshold; fair: one thing did; poor: two or more. */
export type QualityVerdict = 'good' | 'fair' | 'poor' | 'untimed';

export const VERDICT_WORDS: Record<QualityVerdict, string> = {
  good: 'Smooth conversation',
  fair: 'One thing to check',
  poor: 'Several things to check',
  untimed: 'Timing not measured',
};

export interface QualityLine {
  verdict: QualityVerdict;
  /** Two or three figures in words: what went wrong first, then how the agent answered and talked. */
  figures: string[];
}

/**
 * The drawer's one line: a verdict against the client's thresholds (those that put a call in
 * Needs attention) and the figures that matter most, in words.
 */
export function qualityLine(quality: CallQuality, thresholds: QualityThresholdValues): QualityLine {
  if (quality.precision === 'approx')
    return { verdict: 'untimed', figures: [formatTimes(quality.turns, 'turn', 'turns')] };
  const problems: string[] = [];
  const p90 = quality.responseLatencyMs?.p90 ?? null;
  if (p90 !== null && thresholds.responseLatencyP90Ms !== null && p90 >= thresholds.responseLatencyP90Ms)
    problems.push(`slow answers (1 in 10 took ${formatMs(p90)} or more)`);
  const interruptions = quality.interruptions?.caller ?? null;
  if (
    interruptions !== null &&
    thresholds.interruptionsCaller !== null &&
    interruptions >= thresholds.interruptionsCaller
  )
    problems.push(`caller interrupted ${formatTimes(interruptions)}`);
  const deadAir = quality.deadAir?.longestMs ?? null;
  if (deadAir !== null && thresholds.deadAirMs !== null && deadAir >= thresholds.deadAirMs)
    problems.push(`${formatMs(deadAir)} of dead air`);
  const usual: string[] = [];
  const p50 = quality.responseLatencyMs?.p50 ?? null;
  if (p50 !== null) usual.push(`answers in ${formatMs(p50)}`);
  if (quality.agentTalkPct !== null)
    usual.push(`agent talked ${formatPct(quality.agentTalkPct)} of the time`);
  const verdict = problems.length === 0 ? 'good' : problems.length === 1 ? 'fair' : 'poor';
  return { verdict, figures: [...problems, ...usual].slice(0, 3) };
}

/** The line as one sentence: "Smooth conversation · answers in 1.2 s · agent talked 60% of the time". */
export function qualityLineText(line: QualityLine): string {
  return [VERDICT_WORDS[line.verdict], ...line.figures].join(' · ');
}
