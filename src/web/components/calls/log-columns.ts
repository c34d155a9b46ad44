/**
 * Which call log columns show (issue 15) with the log's own quality column (issue 39). The server
 * remembers a person's choice of the contract's columns (`UiPreferences.callLogColumns`, null:
 * all); it has no 'quality' there yet, so that one choice is kept in this browser until it does.
 * The quality column is off until chosen: the table is busy, and the Quality tab is where
 * quality is read. Pure.
 */
import { CALL_LOG_COLUMNS, type CallLogColumn } from '../../../contract/calls';

export type LogColumn = CallLogColumn | 'quality';

/** The log's order: the outcome, then how well the agent spoke, then the cost. */
export const LOG_COLUMNS: readonly LogColumn[] = [
  ...CALL_LOG_COLUMNS.filter((c) => c !== 'cost'),
  'quality',
  'cost',
];

/** The columns shown for a stored choice (null: the defaults) and the browser's quality choice. */
export function visibleColumns(stored: readonly CallLogColumn[] | null, qualityShown: boolean): LogColumn[] {
  return LOG_COLUMNS.filter((c) => (c === 'quality' ? qualityShown : !stored || stored.includes(c)));
}

/** What the server stores of a choice: its columns in order, null when that is all of them. */
export function storedColumns(columns: readonly LogColumn[]): CallLogColumn[] | null {
  const chosen = CALL_LOG_COLUMNS.filter((c) => columns.includes(c));
  return chosen.length === CALL_LOG_COLUMNS.length ? null : chosen;
}

/** A choice the log can show: at least one column besides quality (the server keeps one at least). */
export function isShowableChoice(columns: readonly LogColumn[]): boolean {
  return columns.some((c) => c !== 'quality');
}
