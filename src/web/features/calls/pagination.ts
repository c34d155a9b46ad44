/** Pagination text and buttons of the call log (SPEC §2 "Recent Call Logs"). */
import type { Pagination } from '../../../contract/common';
import { formatCount } from '../../../contract/format';

export const MAX_PAGE_BUTTONS = 5;

/** Pagination shows only when there is more than one page. */
export const hasPages = (p: Pagination | undefined): p is Pagination => !!p && p.totalPages > 1;

/**
 * At most five numbered buttons: 1 to min(5, totalPages) on the first pages, as SPEC shows them,
 * then a window that keeps the current page in the middle, so every page is reachable.
 */
export function pageButtons(page: number, totalPages: number): number[] {
  const count = Math.max(0, Math.min(MAX_PAGE_BUTTONS, totalPages));
  const centred = page - Math.floor(MAX_PAGE_BUTTONS / 2);
  const first = Math.max(1, Math.min(centred, totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => first + i);
}

/** A typed page number, or null when it is not a page of this log. */
export function parsePageInput(text: string, totalPages: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const page = Number(text.trim());
  return page >= 1 && page <= totalPages ? page : null;
}

/** "Showing X to Y of Z results", counts with thousands separators (SPEC §9). */
export function showingText({ page, limit, total, totalIsLowerBound }: Pagination): string {
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  if (totalIsLowerBound) {
    // Counted up to a bound: "of 10,000+"; past it, the page's own end is the least there are.
    const last = page * limit;
    return `Showing ${formatCount(first)} to ${formatCount(last)} of ${formatCount(Math.max(total, last))}+ results`;
  }
  const last = Math.min(page * limit, total);
  return `Showing ${formatCount(first)} to ${formatCount(last)} of ${formatCount(total)} results`;
}
