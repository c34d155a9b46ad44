/**
 * The call log's filter state and how it becomes a request (SPEC §2 "Filter bar", §3 "Filters").
 * Any change other than the page itself starts again at page 1.
 */
import type { CallSort, ChartInterval, SortOrder, StatusFilter } from '../../../contract/calls';
import { DATE_RANGE_DAYS, type DateRange, PAGE_SIZE } from '../../../contract/log-options';
import { DEFAULT_QUALITY_THRESHOLDS } from '../../../contract/quality-metrics';
import { formatMs } from './quality/quality-format';

export interface CallFilters {
  dateRange: DateRange;
  /** A custom range: local days (YYYY-MM-DD) in the account's zone, both included; '' for none. */
  from: string;
  to: string;
  /** 'all' or a pathway name. */
  pathway: string;
  /** SPEC's Completed (the default) and Active, plus Failed, Transferred and All. */
  status: StatusFilter;
  page: number;
  /** Phone number, call id or transcript text (DESIGN §6 [2]); '' for none. */
  search: string;
  /** 'all' or one outcome's name. */
  outcome: string;
  /** Only the calls that still need a person. */
  attention: boolean;
  /**
   * Conversation quality: only calls at or above each figure (a call's p90 response
   * time and longest dead air in ms, the caller's interruptions); null for no bound.
   */
  minLatencyP90Ms: number | null;
  minInterruptions: number | null;
  minDeadAirMs: number | null;
  /** null: the server's default, newest first (with a search too; "Best match" is asked for). */
  sort: CallSort | null;
  order: SortOrder | null;
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
  from: '',
  to: '',
  pathway: 'all',
  status: 'completed',
  page: 1,
  search: '',
  outcome: 'all',
  attention: false,
  minLatencyP90Ms: null,
  minInterruptions: null,
  minDeadAirMs: null,
  sort: null,
  order: null,
};

export type QualityFilterKey = 'minLatencyP90Ms' | 'minInterruptions' | 'minDeadAirMs';

/**
 * The filter bar's quality filters: the bound each sets (the default thresholds: slow answers
 * from 3.5 s, dead air from 5 s; any interruption), its label for the bound in force, in plain
 * words with the bound in seconds, and what it keeps, said in full (the button's tooltip).
 */
export const QUALITY_FILTERS: {
  key: QualityFilterKey;
  bound: number;
  label: (bound: number) => string;
  hint: (bound: number) => string;
}[] = [
  {
    key: 'minLatencyP90Ms',
    bound: DEFAULT_QUALITY_THRESHOLDS.responseLatencyP90Ms ?? 3500,
    label: (ms) => `Slow answers (${formatMs(ms)} or more)`,
    hint: (ms) => `Calls where 1 answer in 10 took ${formatMs(ms)} or more to start`,
  },
  {
    key: 'minInterruptions',
    bound: 1,
    label: (times) => (times <= 1 ? 'Interrupted' : `Interrupted ${times}+ times`),
    hint: (times) =>
      times <= 1
        ? 'Calls where the caller spoke over the agent'
        : `Calls where the caller spoke over the agent ${times} times or more`,
  },
  {
    key: 'minDeadAirMs',
    bound: DEFAULT_QUALITY_THRESHOLDS.deadAirMs ?? 5000,
    label: (ms) => `Dead air (${formatMs(ms)} or more)`,
    hint: (ms) => `Calls with a silence of ${formatMs(ms)} or more where nobody spoke`,
  },
];

export function updateFilters(current: CallFilters, change: Partial<CallFilters>): CallFilters {
  const next = { ...current, ...change };
  // Object.keys is string[]; `change` holds only CallFilters' keys
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

/**
 * What the stats and the chart follow: the log's date window and pathway. Status and search are
 * the log's own (the chart counts completed calls, the stats every status).
 */
export type AnalyticsScope = Pick<CallFilters, 'dateRange' | 'pathway' | 'from' | 'to'>;

export function isCustomRange(scope: Pick<CallFilters, 'from' | 'to'>): boolean {
  return scope.from !== '' && scope.to !== '';
}

/**
 * How many filters narrow the view from its defaults (a phone's "Filters" button shows it): the
 * date range (a preset other than the default, or a custom range), pathway, status, outcome,
 * "Needs attention only" and each quality bound. The search and the sort are not filters here:
 * the search has its own box, and the sort only orders.
 */
export function activeFilterCount(filters: CallFilters): number {
  const on = [
    isCustomRange(filters) || filters.dateRange !== DEFAULT_FILTERS.dateRange,
    filters.pathway !== DEFAULT_FILTERS.pathway,
    filters.status !== DEFAULT_FILTERS.status,
    filters.outcome !== DEFAULT_FILTERS.outcome,
    filters.attention,
    ...QUALITY_FILTERS.map(({ key }) => filters[key] !== null),
  ];
  return on.filter(Boolean).length;
}

/** The parts of a scope that tell its reads apart (cache keys). */
export function scopeKey(scope: AnalyticsScope) {
  return isCustomRange(scope) ? [scope.from, scope.to, scope.pathway] : [scope.dateRange, scope.pathway];
}

/** The chart of a 24-hour window (or of one chosen day) has a point per hour, longer ones a point per day. */
export function chartInterval(scope: AnalyticsScope): ChartInterval {
  if (isCustomRange(scope)) return scope.from === scope.to ? 'hour' : 'day';
  return scope.dateRange === '1d' ? 'hour' : 'day';
}

/**
 * The window's part of a request: a custom range as local days (the server reads them in the
 * account's zone), else the rolling window ending now.
 */
function windowParams(scope: AnalyticsScope, now: number): Record<string, string> {
  if (isCustomRange(scope)) return { dateRange: scope.dateRange, from: scope.from, to: scope.to };
  return { dateRange: scope.dateRange, ...dateWindow(scope.dateRange, now) };
}

/** Query string of a stats or chart request: the same window and pathway as the log's request. */
export function analyticsSearchParams(scope: AnalyticsScope, now: number): URLSearchParams {
  return new URLSearchParams({ ...windowParams(scope, now), pathway: scope.pathway });
}

/** The log's filters as a query: what the page request and the export share. */
export function logFilterParams(filters: CallFilters, now: number): URLSearchParams {
  const { dateRange: _, ...window } = windowParams(filters, now);
  const params = new URLSearchParams({ pathway: filters.pathway, status: filters.status, ...window });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.outcome !== 'all') params.set('outcome', filters.outcome);
  if (filters.attention) params.set('attention', 'true');
  for (const { key } of QUALITY_FILTERS) {
    const bound = filters[key];
    if (bound !== null) params.set(key, String(bound));
  }
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.order) params.set('order', filters.order);
  return params;
}

/**
 * A searched log counts up to 1,000 calls and is read past them by keyset: the
 * `nextAfter` of the page Next was pressed on, kept per view (the filters but the page) and page.
 */
export const LOG_COUNT_BOUND = 1000;
const nextPageCursors = new Map<string, string>();
const viewKey = (filters: CallFilters, page: number) => JSON.stringify({ ...filters, page });

/** Next was pressed on a page whose answer named the page after it: remember how to read it. */
export function rememberNextPage(
  filters: CallFilters,
  from: { page: number; nextAfter?: string },
  target: number,
) {
  if (from.nextAfter && target === from.page + 1)
    nextPageCursors.set(viewKey(filters, target), from.nextAfter);
  // size > 200, so the map is not empty and its first key exists
  if (nextPageCursors.size > 200) nextPageCursors.delete(nextPageCursors.keys().next().value as string);
}

/**
 * A searched log's page past the bound is read only with the cursor Next remembered; one named by
 * the URL alone (a reload, a shared link) shows the last page a number reaches instead of an error.
 */
export function withReachablePage(filters: CallFilters, limit = PAGE_SIZE): CallFilters {
  if (!filters.search || (filters.page - 1) * limit < LOG_COUNT_BOUND) return filters;
  if (nextPageCursors.has(viewKey(filters, filters.page))) return filters;
  return { ...filters, page: Math.ceil(LOG_COUNT_BOUND / limit) };
}

/** Query string of a calls request; dates are taken at request time, so they are not in the cache key. */
export function callsSearchParams(filters: CallFilters, now: number, limit = PAGE_SIZE): URLSearchParams {
  const params = logFilterParams(filters, now);
  params.set('page', String(filters.page));
  params.set('limit', String(limit));
  const after = nextPageCursors.get(viewKey(filters, filters.page));
  if (after && (filters.page - 1) * limit >= LOG_COUNT_BOUND) params.set('after', after);
  return params;
}

/**
 * Narrowing the log to an outcome or to "Needs attention" looks at every status (a failed call
 * has an outcome and may need a person too), unless the client chose a status other than the default.
 */
export function narrowTo(filters: CallFilters, change: Partial<CallFilters>): Partial<CallFilters> {
  return filters.status === DEFAULT_FILTERS.status ? { ...change, status: 'all' } : change;
}
