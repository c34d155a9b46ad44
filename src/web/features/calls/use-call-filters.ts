/**
 * Filter state of one calls view, kept in the page's URL (url-filters.ts): every change but the
 * page starts again at page 1, each is a history entry (back and forward step through views),
 * and typing a search replaces the entry instead of adding one per pause.
 */
import { useCallback, useMemo, useRef } from 'react';
import { navigate, useSearch } from 'wouter/use-browser-location';
import type { DateRange } from '../../../contract/common';
import { type CallFilters, DEFAULT_FILTERS, updateFilters, withReachablePage } from './filters';
import { readFilters, writeFilters } from './url-filters';

/** `ranges`: the date ranges the view offers (a link naming another falls back to the default). */
export function useCallFilters(ranges: readonly DateRange[], initial: Partial<CallFilters> = {}) {
  // The defaults are the first render's: a view's defaults do not change while it is open.
  const defaults = useRef<CallFilters>({ ...DEFAULT_FILTERS, ...initial }).current;
  const allowed = useRef(ranges).current;
  const search = useSearch();
  const filters = useMemo(
    () => withReachablePage(readFilters(search, defaults, allowed)),
    [search, defaults, allowed],
  );
  const change = useCallback(
    (c: Partial<CallFilters>) => {
      // Read the URL now, not the render's copy: two changes in one tick must both land.
      const current = readFilters(window.location.search, defaults, allowed);
      const next = updateFilters(current, c);
      const query = writeFilters(window.location.search, next, defaults);
      if (query === (window.location.search || '')) return;
      const replace = Object.keys(c).every((k) => k === 'search');
      navigate(`${window.location.pathname}${query}${window.location.hash}`, { replace });
    },
    [defaults, allowed],
  );
  const setPage = useCallback((page: number) => change({ page }), [change]);
  return { filters, change, setPage };
}
