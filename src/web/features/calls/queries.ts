/**
 * Calls reads, one hook per endpoint, for any CallSource. Caching per SPEC §9: the log 30 s,
 * stats and chart 60 s (unless the source says otherwise), no retry, no refetch on focus
 * (the query client's defaults). The hooks the first-screen read seeds are useSeededQuery's.
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
import type {
  AttentionList,
  OutcomePoint,
  OutcomeSummaryItem,
  OutcomesState,
} from '../../../contract/outcomes';
import type { QualitySummary, QualityThresholdsState } from '../../../contract/quality';
import { getJson } from '../../lib/api';
import { useSeededQuery } from '../../lib/first-screen-pending';
import type { CallSource, QualityThresholdsApi } from './call-source';
import type { ChartData } from './chart-points';
import {
  type AnalyticsScope,
  analyticsSearchParams,
  type CallFilters,
  callsSearchParams,
  chartInterval,
  isCustomRange,
} from './filters';
import { callKeys } from './query-keys';

const withQuery = (url: string, params: URLSearchParams) => `${url}${url.includes('?') ? '&' : '?'}${params}`;

export function useCalls(source: CallSource, filters: CallFilters) {
  return useSeededQuery({
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
  return useSeededQuery({
    queryKey: callKeys.stats(source.key, scope),
    queryFn: () => getJson<T>(withQuery(source.statsUrl, analyticsSearchParams(scope, Date.now()))),
    staleTime: source.staleTimes?.stats ?? 60_000,
  });
}

export const useDemoStats = (source: CallSource, scope: AnalyticsScope) =>
  useCallStats<DemoStats>(source, scope);

/** The signed-in client's sample data: whether it may be added (no real calls) or removed. */
export function useSampleData() {
  return useSeededQuery({
    queryKey: callKeys.sampleData(),
    queryFn: () => getJson<SampleDataState>('/api/client/sample-calls'),
  });
}

/** The chart's points over the log's window and pathway, with the window's start (its first point may be partial). */
export function useCallsOverTime(source: CallSource, scope: AnalyticsScope) {
  return useSeededQuery({
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
  return useSeededQuery({
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
  return useSeededQuery({
    queryKey: callKeys.outcomesOverTime(source.key, scope),
    queryFn: async () => {
      const params = analyticsSearchParams(scope, Date.now());
      params.set('interval', chartInterval(scope));
      return getJson<OutcomePoint[]>(withQuery(source.outcomesOverTimeUrl, params));
    },
    staleTime: source.staleTimes?.overTime ?? 60_000,
  });
}

/**
 * Conversation quality over the page's window: a preset range as the server's local
 * days up to today, or the custom days; the pathway does not narrow it.
 */
export function useQualitySummary(source: CallSource, scope: AnalyticsScope) {
  return useQuery({
    queryKey: callKeys.qualitySummary(source.key, scope),
    queryFn: () =>
      getJson<QualitySummary>(
        withQuery(
          source.qualitySummaryUrl,
          new URLSearchParams(
            isCustomRange(scope) ? { from: scope.from, to: scope.to } : { dateRange: scope.dateRange },
          ),
        ),
      ),
    staleTime: source.staleTimes?.stats ?? 60_000,
  });
}

/** While earlier calls are being measured, their count is read again every few seconds. */
const MEASURING_POLL_MS = 3000;

/** The quality thresholds, their defaults, and how far measuring earlier calls got; none without a URL. */
export function useQualityThresholds(url: string | undefined) {
  return useQuery({
    queryKey: callKeys.qualityThresholds(url ?? ''),
    queryFn: () => getJson<QualityThresholdsState>(url ?? ''),
    enabled: !!url,
    refetchInterval: (query) => (query.state.data?.measuring ? MEASURING_POLL_MS : false),
  });
}

/** Where re-classifying the account's calls stands (after thresholds are saved): read each second while it runs. */
export function useReclassification(api: QualityThresholdsApi) {
  return useQuery({
    queryKey: callKeys.reclassification(api.outcomes),
    queryFn: async () => (await getJson<OutcomesState>(api.outcomes)).reclassification,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });
}

/** "Needs attention": the open calls, newest first, and how many there are (the header's badge). */
export function useAttention(source: CallSource, limit = 20) {
  return useSeededQuery({
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
