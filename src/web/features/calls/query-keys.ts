/**
 * Cache keys of everything calls-related, one factory. Every key starts with 'calls', so a write
 * (sync, delete, sample data) refreshes the log, stats and chart of every source by that prefix.
 */
import type { CallFilters } from '../../components/calls/filters';
import type { DateRange } from '../../../contract/common';

export const callKeys = {
  all: ['calls'] as const,
  source: (source: string) => [...callKeys.all, source] as const,
  list: (source: string, filters: CallFilters) => [...callKeys.source(source), 'list', filters] as const,
  stats: (source: string, range: DateRange) => [...callKeys.source(source), 'stats', range] as const,
  overTime: (source: string, range: DateRange) => [...callKeys.source(source), 'over-time', range] as const,
  sampleData: () => [...callKeys.all, 'sample-data'] as const,
};
