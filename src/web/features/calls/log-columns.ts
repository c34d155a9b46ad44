/**
 * Which call log columns show, conversation quality among them. The server
 * remembers a person's choice (`UiPreferences.callLogColumns`); null is the defaults, every column
 * but quality (`DEFAULT_CALL_LOG_COLUMNS`). The order is the browser's (`LOG_COLUMNS`), whatever
 * the stored order. Pure.
 */
import { CALL_LOG_COLUMNS, type CallLogColumn, DEFAULT_CALL_LOG_COLUMNS } from '../../../contract/calls';

export type LogColumn = CallLogColumn;

/**
 * The log's order, for a business person: when, who called and what came of it first; then the
 * call's status, length and type, how well the agent spoke, the cost; the call's ID (its short
 * reference, the one the e-mails name) last. SPEC's columns are all here, in another order.
 */
export const LOG_COLUMNS: readonly LogColumn[] = [
  'created',
  'fromTo',
  'outcome',
  'status',
  'duration',
  'pathway',
  'quality',
  'cost',
  'callId',
] satisfies (typeof CALL_LOG_COLUMNS)[number][];

/** The columns shown for a stored choice (null: the defaults). */
export function visibleColumns(stored: readonly CallLogColumn[] | null): LogColumn[] {
  const shown = stored ?? DEFAULT_CALL_LOG_COLUMNS;
  return LOG_COLUMNS.filter((c) => shown.includes(c));
}

/** What the server stores of a choice: its columns in order, null when that is the defaults. */
export function storedColumns(columns: readonly LogColumn[]): CallLogColumn[] | null {
  const chosen = CALL_LOG_COLUMNS.filter((c) => columns.includes(c));
  const isDefault =
    chosen.length === DEFAULT_CALL_LOG_COLUMNS.length &&
    chosen.every((c) => DEFAULT_CALL_LOG_COLUMNS.includes(c));
  return isDefault ? null : chosen;
}

/** A choice the log can show: at least one column besides quality. */
export function isShowableChoice(columns: readonly LogColumn[]): boolean {
  return columns.some((c) => c !== 'quality');
}
