/**
 * The call log's compact quality column from a call's brief: what stands out, short
 * ("answers within 4.5 s · 1 interruption · dead air 6.0 s"), and the same in full for a title and screen
 * readers. Pure.
 */
import { type CallQualityBrief, DEAD_AIR_MS } from '../../../../contract/quality';
import { formatMs, formatTimes, NO_FIGURE, PRECISION_TEXTS } from './quality-format';

export interface QualityBriefText {
  text: string;
  /** The same, one part per line where the column is narrow. */
  parts: string[];
  description: string;
}

export function qualityBriefText(brief: CallQualityBrief | null | undefined): QualityBriefText {
  if (!brief) return { text: NO_FIGURE, parts: [NO_FIGURE], description: 'Not measured' };
  const timing = PRECISION_TEXTS[brief.precision].label.toLowerCase();
  if (brief.precision === 'approx')
    return {
      text: 'Order only',
      parts: ['Order only'],
      description: `${PRECISION_TEXTS.approx.label}: no timing to measure`,
    };
  const short: string[] = [];
  const full: string[] = [];
  if (brief.responseLatencyP90Ms !== null) {
    short.push(`answers within ${formatMs(brief.responseLatencyP90Ms)}`);
    full.push(`9 answers in 10 came within ${formatMs(brief.responseLatencyP90Ms)}`);
  }
  if (brief.interruptionsCaller !== null && brief.interruptionsCaller > 0) {
    short.push(formatTimes(brief.interruptionsCaller, 'interruption', 'interruptions'));
    full.push(`the caller interrupted ${formatTimes(brief.interruptionsCaller)}`);
  }
  if (brief.deadAirLongestMs !== null && brief.deadAirLongestMs >= DEAD_AIR_MS) {
    short.push(`dead air ${formatMs(brief.deadAirLongestMs)}`);
    full.push(`longest dead air ${formatMs(brief.deadAirLongestMs)}`);
  }
  if (short.length === 0)
    return { text: NO_FIGURE, parts: [NO_FIGURE], description: `Nothing to measure (${timing})` };
  const sentence = full.join(', ');
  return {
    text: short.join(' · '),
    parts: short,
    description: `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)} (${timing})`,
  };
}
