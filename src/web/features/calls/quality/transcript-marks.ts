/**
 * Which transcript lines the synced transcript marks: a slow answer and dead air mark
 * the line that ended the wait (the moment's start plus its length), an interruption the line that
 * cut in (the moment's start). Each mark carries words, so it never rests on colour alone. Pure.
 */
import type { QualityMoment, QualityMomentKind } from '../../../../contract/quality';
import { formatMs } from './quality-format';

export interface TranscriptMark {
  kind: QualityMomentKind;
  /** Shown on the line: "Slow answer · 6.0 s". */
  label: string;
  /** Said in full to screen readers (and as the mark's title). */
  description: string;
}

/** A line starting this close to a moment is its line (the server rounds times to whole ms). */
const SAME_MS = 1;

function markOf(moment: QualityMoment): TranscriptMark {
  const length = formatMs(moment.durationMs);
  switch (moment.kind) {
    case 'slow_turn':
      return {
        kind: moment.kind,
        label: `Slow answer · ${length}`,
        description: `Slow answer: the agent started ${length} after the caller stopped.`,
      };
    case 'dead_air':
      return {
        kind: moment.kind,
        label: `Dead air · ${length}`,
        description: `Dead air: nobody spoke for ${length} before this line.`,
      };
    case 'caller_interrupted':
      return {
        kind: moment.kind,
        label: 'Caller interrupted',
        description: `Interruption: the caller spoke over the agent for ${length}.`,
      };
    case 'agent_interrupted':
      return {
        kind: moment.kind,
        label: 'Agent interrupted',
        description: `Interruption: the agent spoke over the caller for ${length}.`,
      };
  }
}

/** Where in the call the marked line starts, in ms. */
function lineStartOf(moment: QualityMoment): number {
  return moment.kind === 'slow_turn' || moment.kind === 'dead_air'
    ? moment.atMs + moment.durationMs
    : moment.atMs;
}

/**
 * The marks of each line, by the lines' starts in ms from the call's start (null where a line has
 * none). A moment goes to the line starting at its time or else the first one starting after it;
 * a moment past every line is not shown.
 */
export function transcriptMarks(
  lineStartsMs: readonly (number | null)[],
  moments: readonly QualityMoment[],
): Map<number, TranscriptMark[]> {
  const marks = new Map<number, TranscriptMark[]>();
  for (const moment of moments) {
    const at = lineStartOf(moment);
    let index = lineStartsMs.findIndex((start) => start !== null && Math.abs(start - at) <= SAME_MS);
    if (index < 0) index = lineStartsMs.findIndex((start) => start !== null && start >= at);
    if (index < 0) continue;
    marks.set(index, [...(marks.get(index) ?? []), markOf(moment)]);
  }
  return marks;
}
