/**
 * The call log's filter state and how it becomes a request (SPEC §2 "Filter bar", §3 "Filters").
 * Any change other than the page itself starts again at page 1.
 */
import type { StatusFilter } from '../../../contract/calls';
import { DATE_RANGE_DAYS, type DateRange, PAGE_SIZE } from '../../../contract/common';

export interface CallFilters {
  dateRange: DateRange;
  /** 'all' or a pathway name. */
  pathway: string;
  /** SPEC's Completed (the default) and Active, plus Failed, Transferred and All. */
  status: StatusFilter;
  page: number;
  /** Phone number, call id or transcript text (DESIGN §6 [2]); '' for none. */
  search: string;
}

/** What the Date Range select shows for each range (SPEC §2 names 7d, 30d and 60d). */
export const DATE_RANGE_LABELS: Record<DateRange, string> = {
  '1d': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '60d': 'Last 2 months',
  '90d': 'Last 90 days',
};

export const DEFAULT_FILTERS: CallFilters = {
  dateRange: '7d',
  pathway: 'all',
  status: 'completed',
  page: 1,
  search: '',
};

export function updateFilters(current: CallFilters, change: Partial<CallFilters>): CallFilters {
  const next = { ...current, ...change };
  const onlyPage = (Object.keys(change) as (keyof CallFilters)[]).every(
    (k) => k === 'page' || change[k] === current[k],
  );
  return onlyPage ? next : { ...next, page: 1 };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The rolling window of a range: now minus N days to now. */
export function dateWindow(range: DateRange, now: number): { startDate: string; endDate: string } {
  return {
    startDate: new Date(now - DATE_RANGE_DAYS[range] * DAY_MS).toISOString(),
    endDate: new Date(now).toISOString(),
  };
}

/** Query string of a calls request; dates are taken at request time, so they are not in the cache key. */
export function callsSearchParams(filters: CallFilters, now: number, limit = PAGE_SIZE): URLSearchParams {
  const { startDate, endDate } = dateWindow(filters.dateRange, now);
  const params = new URLSearchParams({
    pathway: filters.pathway,
    status: filters.status,
    startDate,
    endDate,
    page: String(filters.page),
    limit: String(limit),
  });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  return params;
}
