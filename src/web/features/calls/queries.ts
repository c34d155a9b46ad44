/**
 * Calls reads, one hook per endpoint, for any CallSource. Caching per SPEC §9: the log 30 s,
 * stats and chart 60 s (unless the source says otherwise), no retry, no refetch on focus
 * (the query client's defaults).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  CallDetail,
  CallsPage,
  ClientStats,
  DailyPoint,
  DemoStats,
  SampleDataState,
} from '../../../contract/calls';
import type { AttentionList, OutcomePoint, OutcomeSummaryItem } from '../../../contract/outcomes';
import type { ChartData } from '../../components/calls/chart-points';
import {
  type AnalyticsScope,
  type CallFilters,
  analyticsSearchParams,
  callsSearchParams,
  chartInterval,
  isCustomRange,
} from '../../components/calls/filters';
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

/** Stats over the log's window and pathway, so the cards count the calls the log can list. */
export function useCallStats<T extends ClientStats = ClientStats>(source: CallSource, scope: AnalyticsScope) {
  return useQuery({
    queryKey: callKeys.stats(source.key, scope),
    queryFn: () => getJson<T>(withQuery(source.statsUrl, analyticsSearchParams(scope, Date.now()))),
    staleTime: source.staleTimes?.stats ?? 60_000,
  });
}

export const useDemoStats = (source: CallSource, scope: AnalyticsScope) =>
  useCallStats<DemoStats>(source, scope);

/** The signed-in client's sample data: whether it may be added (no real calls) or removed. */
export function useSampleData() {
  return useQuery({
    queryKey: callKeys.sampleData(),
    queryFn: () => getJson<SampleDataState>('/api/client/sample-calls'),
  });
}

/** The chart's points over the log's window and pathway, with the window's start (its first point may be partial). */
export function useCallsOverTime(source: CallSource, scope: AnalyticsScope) {
  return useQuery({
    queryKey: callKeys.overTime(source.key, scope),
    queryFn: async (): Promise<ChartData> => {
      const params = analyticsSearchParams(scope, Date.now());
      const interval = chartInterval(scope);
      params.set('interval', interval);
      const points = await getJson<DailyPoint[]>(withQuery(source.overTimeUrl, params));
      // A custom range is whole days: no partial first point, and its last day may be over.
      return { points, interval, startDate: params.get('startDate') ?? '', endsNow: !isCustomRange(scope) };
    },
    staleTime: source.staleTimes?.overTime ?? 60_000,
  });
}

/** The outcomes strip: counts, values and changes per outcome over the page's window and pathway. */
export function useOutcomeSummary(source: CallSource, scope: AnalyticsScope) {
  return useQuery({
    queryKey: callKeys.outcomes(source.key, scope),
    queryFn: () =>
      getJson<OutcomeSummaryItem[]>(
        withQuery(source.outcomesSummaryUrl, analyticsSearchParams(scope, Date.now())),
      ),
    staleTime: source.staleTimes?.stats ?? 60_000,
  });
}

/** The stacked outcomes chart: calls per outcome per day (or hour for a day's window). */
export function useOutcomesOverTime(source: CallSource, scope: AnalyticsScope) {
  return useQuery({
    queryKey: callKeys.outcomesOverTime(source.key, scope),
    queryFn: async () => {
      const params = analyticsSearchParams(scope, Date.now());
      params.set('interval', chartInterval(scope));
      return getJson<OutcomePoint[]>(withQuery(source.outcomesOverTimeUrl, params));
    },
    staleTime: source.staleTimes?.overTime ?? 60_000,
  });
}

/** "Needs attention": the open calls, newest first, and how many there are (the header's badge). */
export function useAttention(source: CallSource, limit = 20) {
  return useQuery({
    queryKey: [...callKeys.attention(source.key), limit],
    queryFn: () =>
      getJson<AttentionList>(withQuery(source.attentionUrl, new URLSearchParams({ limit: String(limit) }))),
    staleTime: source.staleTimes?.calls ?? 30_000,
  });
}

/** One call in full, for the detail drawer; null id means the drawer is closed. */
export function useCallDetail(source: CallSource, callId: string | null) {
  return useQuery({
    queryKey: callKeys.detail(source.key, callId ?? ''),
    queryFn: () => getJson<CallDetail>(source.callUrl(callId ?? '')),
    enabled: callId !== null,
    staleTime: source.staleTimes?.calls ?? 30_000,
  });
}
