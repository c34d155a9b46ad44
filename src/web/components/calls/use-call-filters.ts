/** Filter state of one calls view; every change but the page starts again at page 1. */
import { useCallback, useState } from 'react';
import { type CallFilters, DEFAULT_FILTERS, updateFilters } from './filters';

export function useCallFilters(initial: Partial<CallFilters> = {}) {
  const [filters, setFilters] = useState<CallFilters>(() => ({ ...DEFAULT_FILTERS, ...initial }));
  const change = useCallback((c: Partial<CallFilters>) => setFilters((f) => updateFilters(f, c)), []);
  const setPage = useCallback((page: number) => change({ page }), [change]);
  return { filters, change, setPage };
}
