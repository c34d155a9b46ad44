import { describe, expect, it } from 'vitest';
import { CALL_LOG_COLUMNS } from '../../../contract/calls';
import { isShowableChoice, LOG_COLUMNS, storedColumns, visibleColumns } from './log-columns';

describe('call log columns', () => {
  it('shows every column but quality by default, and quality once chosen, in the log’s order', () => {
    expect(visibleColumns(null)).toEqual(LOG_COLUMNS.filter((c) => c !== 'quality'));
    expect(visibleColumns(['cost', 'quality', 'fromTo'])).toEqual(['fromTo', 'quality', 'cost']);
  });

  it('leads with when, who called and what came of it; the call ID comes last', () => {
    expect(LOG_COLUMNS.slice(0, 3)).toEqual(['created', 'fromTo', 'outcome']);
    expect(LOG_COLUMNS.at(-1)).toBe('callId');
    // Every column, SPEC's among them, once.
    expect([...LOG_COLUMNS].sort()).toEqual([...CALL_LOG_COLUMNS].sort());
  });

  it('stores null for the defaults, else the chosen columns in order', () => {
    expect(storedColumns(CALL_LOG_COLUMNS.filter((c) => c !== 'quality'))).toBeNull();
    expect(storedColumns([...LOG_COLUMNS])).toEqual([...CALL_LOG_COLUMNS]);
    expect(storedColumns(['quality', 'duration', 'callId'])).toEqual(['callId', 'duration', 'quality']);
  });

  it('needs a column besides quality', () => {
    expect(isShowableChoice(['quality'])).toBe(false);
    expect(isShowableChoice(['quality', 'cost'])).toBe(true);
  });
});
