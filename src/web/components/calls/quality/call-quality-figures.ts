/**
 * One call's conversation quality (issue 39) as the drawer lists it: each figure labelled, "—"
 * where the figure is null, and a note saying why it is null (the platform's timing cannot say it
 * for an `approx` call; otherwise there was nothing to measure). Pure.
 */
import type { CallQuality, EndedBy } from '../../../../contract/quality';
import { NO_FIGURE, PRECISION_TEXTS, formatMs, formatPct, formatRatio, formatTimes } from './quality-format';

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
  '— The platform gives only the order of this call’s lines, not when each was spoken, so its timing cannot say these figures.';
export const NOTHING_TO_MEASURE_NOTE =
  '— Nothing to measure in this call (no answer followed the caller, or the caller never spoke).';

export function callQualityFigures(quality: CallQuality): { figures: QualityFigure[]; note: string | null } {
  const latency = quality.responseLatencyMs;
  const figures: QualityFigure[] = [
    { key: 'precision', label: 'Timing', value: PRECISION_TEXTS[quality.precision].label },
    { key: 'turns', label: 'Turns', value: String(quality.turns) },
    { key: 'latency-p50', label: 'Response time (median)', value: formatMs(latency?.p50) },
    { key: 'latency-p90', label: 'Response time (p90)', value: formatMs(latency?.p90) },
    { key: 'latency-max', label: 'Slowest answer', value: formatMs(latency?.max) },
    {
      key: 'interruptions-caller',
      label: 'Caller interrupted the agent',
      value: formatTimes(quality.interruptions?.caller),
    },
    {
      key: 'interruptions-agent',
      label: 'Agent interrupted the caller',
      value: formatTimes(quality.interruptions?.agent),
    },
    { key: 'dead-air-count', label: 'Dead air', value: formatTimes(quality.deadAir?.count) },
    {
      key: 'dead-air-longest',
      label: 'Longest dead air',
      value: quality.deadAir ? formatMs(quality.deadAir.longestMs) : NO_FIGURE,
    },
    { key: 'silence', label: 'Silence', value: formatPct(quality.silencePct) },
    { key: 'agent-talk', label: 'Agent talk', value: formatPct(quality.agentTalkPct) },
    { key: 'talk-listen', label: 'Talk/listen ratio', value: formatRatio(quality.talkListenRatio) },
    { key: 'monologue', label: 'Longest monologue', value: formatMs(quality.longestMonologueMs) },
    { key: 'ended-by', label: 'Ended by', value: ENDED_BY_LABELS[quality.endedBy] },
    { key: 'escalated', label: 'Escalated', value: quality.escalated ? 'Yes' : 'No' },
    { key: 'sentiment', label: 'Sentiment', value: quality.sentiment ?? 'Not given' },
  ];
  const measuredNull = figures.some((f) => f.value === NO_FIGURE);
  const note = quality.precision === 'approx' ? APPROX_NOTE : measuredNull ? NOTHING_TO_MEASURE_NOTE : null;
  return { figures, note };
}
