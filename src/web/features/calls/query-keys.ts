/**
 * Cache keys of everything calls-related, one factory. Every key starts with 'calls', so a write
 * (sync, delete, sample data) refreshes the log, stats and chart of every source by that prefix.
 */
import { type AnalyticsScope, type CallFilters, isCustomRange, scopeKey } from './filters';

export const callKeys = {
  all: ['calls'] as const,
  source: (source: string) => [...callKeys.all, source] as const,
  list: (source: string, filters: CallFilters) => [...callKeys.source(source), 'list', filters] as const,
  stats: (source: string, scope: AnalyticsScope) =>
    [...callKeys.source(source), 'stats', ...scopeKey(scope)] as const,
  overTime: (source: string, scope: AnalyticsScope) =>
    [...callKeys.source(source), 'over-time', ...scopeKey(scope)] as const,
  outcomes: (source: string, scope: AnalyticsScope) =>
    [...callKeys.source(source), 'outcomes', ...scopeKey(scope)] as const,
  outcomesOverTime: (source: string, scope: AnalyticsScope) =>
    [...callKeys.source(source), 'outcomes-over-time', ...scopeKey(scope)] as const,
  /** A quality summary covers days, not a pathway: only the window tells two apart. */
  qualitySummary: (source: string, scope: AnalyticsScope) =>
    [
      ...callKeys.source(source),
      'quality-summary',
      ...(isCustomRange(scope) ? [scope.from, scope.to] : [scope.dateRange]),
    ] as const,
  /** Thresholds and re-classification, by URL (the client's own, or the admin's for a client). */
  qualityThresholds: (url: string) => [...callKeys.all, 'quality-thresholds', url] as const,
  reclassification: (url: string) => [...callKeys.all, 'reclassification', url] as const,
  attention: (source: string) => [...callKeys.source(source), 'attention'] as const,
  detail: (source: string, callId: string) => [...callKeys.source(source), 'detail', callId] as const,
  /** The client's own outcome list (Settings); under 'calls' so a save refreshes every outcome read. */
  outcomesList: () => [...callKeys.all, 'outcome-list'] as const,
  sampleData: () => [...callKeys.all, 'sample-data'] as const,
};

/** The signed-in person's screen choices (the log's columns), by URL (the client's or the admin's). */
export const preferencesKey = (url: string) => ['preferences', url] as const;
