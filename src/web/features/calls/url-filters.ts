/**
 * A calls view's filters in the page's query string, so a reload, back and forward, and
 * a link a colleague opens all show the same view. Only what differs from the view's defaults is
 * written; parameters the filters do not own (the open call, `call` and `t`) are left alone.
 * Anything unreadable in a hand-edited link falls back to the default.
 */
import {
  CALL_SORTS,
  type CallSort,
  DATE_RANGES,
  type DateRange,
  SORT_ORDERS,
  STATUS_FILTERS,
  type StatusFilter,
} from '../../../contract/log-options';
import type { CallFilters } from './filters';

const PARAM: Record<keyof CallFilters, string> = {
  dateRange: 'range',
  from: 'from',
  to: 'to',
  pathway: 'pathway',
  status: 'status',
  page: 'page',
  search: 'q',
  outcome: 'outcome',
  attention: 'attention',
  minLatencyP90Ms: 'p90',
  minInterruptions: 'interruptions',
  minDeadAirMs: 'deadair',
  sort: 'sort',
  order: 'order',
};

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  // includes takes only T; passing it makes `value` a T
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A quality bound as the API takes it: a whole number of up to seven digits, above zero. */
const bound = (value: string | null): number | null =>
  value !== null && /^\d{1,7}$/.test(value) && Number(value) > 0 ? Number(value) : null;

/** The filters a query string names, the defaults for the rest. */
export function readFilters(
  search: string,
  defaults: CallFilters,
  ranges: readonly DateRange[],
): CallFilters {
  const params = new URLSearchParams(search);
  const get = (key: keyof CallFilters) => params.get(PARAM[key]);
  const page = Number(get('page'));
  const from = get('from') ?? '';
  const to = get('to') ?? '';
  const custom = DAY.test(from) && DAY.test(to) && from <= to;
  const range = oneOf(DATE_RANGES, get('dateRange'));
  return {
    dateRange: range && ranges.includes(range) ? range : defaults.dateRange,
    from: custom ? from : defaults.from,
    to: custom ? to : defaults.to,
    pathway: get('pathway')?.slice(0, 100) || defaults.pathway,
    status: oneOf<StatusFilter>(STATUS_FILTERS, get('status')) ?? defaults.status,
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : defaults.page,
    search: get('search')?.slice(0, 200) ?? defaults.search,
    outcome: get('outcome')?.slice(0, 60) || defaults.outcome,
    attention: get('attention') === '1' ? true : defaults.attention,
    minLatencyP90Ms: bound(get('minLatencyP90Ms')) ?? defaults.minLatencyP90Ms,
    minInterruptions: bound(get('minInterruptions')) ?? defaults.minInterruptions,
    minDeadAirMs: bound(get('minDeadAirMs')) ?? defaults.minDeadAirMs,
    sort: oneOf<CallSort>(CALL_SORTS, get('sort')) ?? defaults.sort,
    order: oneOf(SORT_ORDERS, get('order')) ?? defaults.order,
  };
}

/** The query string (with its "?", or '' when empty) that names these filters, other parameters kept. */
export function writeFilters(search: string, filters: CallFilters, defaults: CallFilters): string {
  const params = new URLSearchParams(search);
  // Object.keys is string[]; PARAM is keyed by CallFilters' keys
  for (const key of Object.keys(PARAM) as (keyof CallFilters)[]) {
    const value = filters[key];
    if (value === defaults[key] || value === null || value === '') params.delete(PARAM[key]);
    else params.set(PARAM[key], value === true ? '1' : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
