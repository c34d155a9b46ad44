/**
 * The call log's choices as plain values, without schemas: date ranges, status filters, sorts and
 * the page size. The browser's first bundle reads them to put a view's filters in its URL (and to
 * start the first screen's read), and must not carry zod: a schema is built when its module loads,
 * so one constant imported from a schema module brings the library and every schema in that
 * module to the landing page. common.ts and calls.ts re-export them for everyone else.
 */

/** Every range the server understands; views offer subsets (SPEC §9). */
export const DATE_RANGES = ['1d', '7d', '30d', '60d', '90d'] as const;
export type DateRange = (typeof DATE_RANGES)[number];
export const CLIENT_DATE_RANGES = ['7d', '30d', '60d'] as const satisfies readonly DateRange[];
export const ADMIN_DATE_RANGES = ['1d', '7d', '30d', '90d'] as const satisfies readonly DateRange[];
export const DEFAULT_DATE_RANGE: DateRange = '7d';

export const DATE_RANGE_DAYS: Record<DateRange, number> = {
  '1d': 1,
  '7d': 7,
  '30d': 30,
  '60d': 60,
  '90d': 90,
};

export const PAGE_SIZE = 10;

export const CALL_STATUSES = ['completed', 'failed', 'transferred', 'active', 'unknown'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** Pathways offered by the filter bar; the server matches names case-insensitively. */
export const PATHWAYS = ['sales', 'support', 'booking'] as const;
export const STATUS_FILTERS = ['completed', 'active', 'failed', 'transferred', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Columns the call log sorts by; `relevance` (best match first) only with a text search. */
export const CALL_SORTS = ['created', 'duration', 'cost', 'relevance'] as const;
export type CallSort = (typeof CALL_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
