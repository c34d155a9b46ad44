/**
 * Calls reads, one hook per endpoint, for any CallSource. Caching per SPEC §9: the log 30 s,
 * stats and chart 60 s (unless the source says otherwise), no retry, no refetch on focus
 * (the query client's defaults).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallsPage, ClientStats, DailyPoint, DemoStats, SampleDataState } from '../../../contract/calls';
import type { DateRange } from '../../../contract/common';
import { type CallFilters, callsSearchParams } from '../../components/calls/filters';
import { getJson } from '../../lib/api';
import type { CallSource } from './call-source';
import { callKeys } from './query-keys';

const withQuery = (url: string, params: URLSearchParams) => `${url}${url.includes('?') ? '&' : '?'}${params}`;

export function useCalls(source: CallSource, filters: CallFilters) {
  return useQuery({
    queryKey: callKeys.list(source.key, filters),
    // The window ends "now" when the request is made, not when the filters were chosen.
    queryFn: () => getJson<CallsPage>(withQuery(source.callsUrl, callsSearchParams(filters, Date.now()))),
    staleTime: source.staleTimes?.calls ?? 30_000,
    // Paging keeps the current rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}

export function useCallStats<T extends ClientStats = ClientStats>(source: CallSource, dateRange: DateRange) {
  return useQuery({
    queryKey: callKeys.stats(source.key, dateRange),
    queryFn: () => getJson<T>(withQuery(source.statsUrl, new URLSearchParams({ dateRange }))),
    staleTime: source.staleTimes?.stats ?? 60_000,
  });
}

export const useDemoStats = (source: CallSource, dateRange: DateRange) =>
  useCallStats<DemoStats>(source, dateRange);

/** The signed-in client's sample data: whether it may be added (no real calls) or removed. */
export function useSampleData() {
  return useQuery({
    queryKey: callKeys.sampleData(),
    queryFn: () => getJson<SampleDataState>('/api/client/sample-calls'),
  });
}

export function useCallsOverTime(source: CallSource, dateRange: DateRange) {
  return useQuery({
    queryKey: callKeys.overTime(source.key, dateRange),
    queryFn: () => getJson<DailyPoint[]>(withQuery(source.overTimeUrl, new URLSearchParams({ dateRange }))),
    staleTime: source.staleTimes?.overTime ?? 60_000,
  });
}
