/** Pagination text and buttons of the call log (SPEC §2 "Recent Call Logs"). */
import type { Pagination } from '../../../contract/common';

export const MAX_PAGE_BUTTONS = 5;

/** Pagination shows only when there is more than one page. */
export const hasPages = (p: Pagination | undefined): p is Pagination => !!p && p.totalPages > 1;

/** Numbered buttons 1 to min(5, totalPages). */
export function pageButtons(totalPages: number): number[] {
  return Array.from({ length: Math.max(0, Math.min(MAX_PAGE_BUTTONS, totalPages)) }, (_, i) => i + 1);
}

/** "Showing X to Y of Z results". */
export function showingText({ page, limit, total }: Pagination): string {
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(page * limit, total);
  return `Showing ${first} to ${last} of ${total} results`;
}
