import { describe, expect, it } from 'vitest';
import { CALL_LOG_COLUMNS } from '../../../contract/calls';
import { LOG_COLUMNS, isShowableChoice, storedColumns, visibleColumns } from './log-columns';

describe('call log columns', () => {
  it('shows every stored column by default and the quality column only once chosen', () => {
    expect(visibleColumns(null, false)).toEqual([...CALL_LOG_COLUMNS]);
    expect(visibleColumns(null, true)).toEqual([...LOG_COLUMNS]);
    expect(visibleColumns(['fromTo', 'cost'], true)).toEqual(['fromTo', 'quality', 'cost']);
    expect(LOG_COLUMNS.slice(-3)).toEqual(['outcome', 'quality', 'cost']);
  });

  it('stores the server’s columns only, null for all of them', () => {
    expect(storedColumns([...LOG_COLUMNS])).toBeNull();
    expect(storedColumns(['quality', 'duration', 'callId'])).toEqual(['callId', 'duration']);
  });

  it('needs a column besides quality', () => {
    expect(isShowableChoice(['quality'])).toBe(false);
    expect(isShowableChoice(['quality', 'cost'])).toBe(true);
  });
});
