/** The call log's column names, for the log's headers and the Columns dialog. */
import type { LogColumn } from './log-columns';

/** SPEC's columns in SPEC's order, then the call's outcome, its quality and cost. */
export const COLUMN_LABELS: Record<LogColumn, string> = {
  callId: 'Call ID',
  fromTo: 'From/To',
  duration: 'Duration',
  status: 'Status',
  pathway: 'Pathway',
  created: 'Created',
  outcome: 'Outcome',
  quality: 'Quality',
  cost: 'Cost',
};

/** A column's name where the voice platform may (`showPlatform`) or may not be named. */
export function columnLabel(column: LogColumn, showPlatform: boolean): string {
  return column === 'pathway' && !showPlatform ? 'Call type' : COLUMN_LABELS[column];
}
