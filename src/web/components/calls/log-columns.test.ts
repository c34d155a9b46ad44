import { describe, expect, it } from 'vitest';
import { CALL_LOG_COLUMNS } from '../../../contract/calls';
import { LOG_COLUMNS, isShowableChoice, storedColumns, visibleColumns } from './log-columns';

describe('call log columns', () => {
  it('shows every column but quality by default, and quality once chosen, in the log’s order', () => {
    expect(visibleColumns(null)).toEqual(CALL_LOG_COLUMNS.filter((c) => c !== 'quality'));
    expect(visibleColumns(['cost', 'quality', 'fromTo'])).toEqual(['fromTo', 'quality', 'cost']);
    expect(LOG_COLUMNS.slice(-3)).toEqual(['outcome', 'quality', 'cost']);
  });

  it('stores null for the defaults, else the chosen columns in order', () => {
    expect(storedColumns(CALL_LOG_COLUMNS.filter((c) => c !== 'quality'))).toBeNull();
    expect(storedColumns([...LOG_COLUMNS])).toEqual([...LOG_COLUMNS]);
    expect(storedColumns(['quality', 'duration', 'callId'])).toEqual(['callId', 'duration', 'quality']);
  });

  it('needs a column besides quality', () => {
    expect(isShowableChoice(['quality'])).toBe(false);
    expect(isShowableChoice(['quality', 'cost'])).toBe(true);
  });
});
