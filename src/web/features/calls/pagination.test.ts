import { describe, expect, it } from 'vitest';
import { hasPages, pageButtons, parsePageInput, showingText } from './pagination';

describe('call log pagination', () => {
  it('shows only with more than one page', () => {
    expect(hasPages(undefined)).toBe(false);
    expect(hasPages({ page: 1, limit: 10, total: 10, totalPages: 1 })).toBe(false);
    expect(hasPages({ page: 1, limit: 10, total: 11, totalPages: 2 })).toBe(true);
  });

  it('numbers at most five buttons, 1 to 5 on the first pages', () => {
    expect(pageButtons(1, 2)).toEqual([1, 2]);
    expect(pageButtons(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(3, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(1, 0)).toEqual([]);
  });

  it('keeps the current page in a window further on, up to the last page', () => {
    expect(pageButtons(4, 12)).toEqual([2, 3, 4, 5, 6]);
    expect(pageButtons(93, 186)).toEqual([91, 92, 93, 94, 95]);
    expect(pageButtons(185, 186)).toEqual([182, 183, 184, 185, 186]);
    expect(pageButtons(186, 186)).toEqual([182, 183, 184, 185, 186]);
  });

  it('accepts a typed page only within the log', () => {
    expect(parsePageInput('42', 186)).toBe(42);
    expect(parsePageInput(' 7 ', 186)).toBe(7);
    expect(parsePageInput('0', 186)).toBeNull();
    expect(parsePageInput('187', 186)).toBeNull();
    expect(parsePageInput('2.5', 186)).toBeNull();
    expect(parsePageInput('', 186)).toBeNull();
  });

  it('says which rows are shown', () => {
    expect(showingText({ page: 186, limit: 10, total: 1851, totalPages: 186 })).toBe(
      'Showing 1,851 to 1,851 of 1,851 results',
    );
    expect(showingText({ page: 1, limit: 10, total: 23, totalPages: 3 })).toBe(
      'Showing 1 to 10 of 23 results',
    );
    expect(showingText({ page: 3, limit: 10, total: 23, totalPages: 3 })).toBe(
      'Showing 21 to 23 of 23 results',
    );
    expect(showingText({ page: 1, limit: 10, total: 0, totalPages: 1 })).toBe('Showing 0 to 0 of 0 results');
    // Counted up to a bound: "of 10,000+", and past the bound the page's own end.
    const bounded = { limit: 50, total: 10_000, totalIsLowerBound: true };
    expect(showingText({ ...bounded, page: 1, totalPages: 200 })).toBe('Showing 1 to 50 of 10,000+ results');
    expect(showingText({ ...bounded, page: 300, totalPages: 301 })).toBe(
      'Showing 14,951 to 15,000 of 15,000+ results',
    );
  });
});
