import { describe, expect, it } from 'vitest';
import { hasPages, pageButtons, showingText } from './pagination';

describe('call log pagination', () => {
  it('shows only with more than one page', () => {
    expect(hasPages(undefined)).toBe(false);
    expect(hasPages({ page: 1, limit: 10, total: 10, totalPages: 1 })).toBe(false);
    expect(hasPages({ page: 1, limit: 10, total: 11, totalPages: 2 })).toBe(true);
  });

  it('numbers at most five buttons', () => {
    expect(pageButtons(2)).toEqual([1, 2]);
    expect(pageButtons(5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(0)).toEqual([]);
  });

  it('says which rows are shown', () => {
    expect(showingText({ page: 1, limit: 10, total: 23, totalPages: 3 })).toBe(
      'Showing 1 to 10 of 23 results',
    );
    expect(showingText({ page: 3, limit: 10, total: 23, totalPages: 3 })).toBe(
      'Showing 21 to 23 of 23 results',
    );
    expect(showingText({ page: 1, limit: 10, total: 0, totalPages: 1 })).toBe('Showing 0 to 0 of 0 results');
  });
});
