/**
 * The state of one calls workspace: the filters (in the URL, use-call-filters.ts), the call the
 * drawer shows (in the URL, use-call-drawer.ts), whether the search box is open, and the "Needs
 * attention" panel the header's badge moves the focus to.
 */
import { type RefObject, useCallback, useRef, useState } from 'react';
import type { CallSource } from '../../features/calls/call-source';
import type { CallFilters } from './filters';
import { useCallDrawer } from './use-call-drawer';
import { useCallFilters } from './use-call-filters';
import { isSearchShown, type SearchMode } from './workspace-layout';

export interface CallsWorkspaceState {
  source: CallSource;
  filters: CallFilters;
  /** Receives only what changed; every change but the page starts again at page 1. */
  change: (change: Partial<CallFilters>) => void;
  setPage: (page: number) => void;
  drawer: ReturnType<typeof useCallDrawer>;
  /** Whether the search box shows. */
  searchOpen: boolean;
  /** Opens the search box, or closes it and clears the search (the header's search button). */
  toggleSearch: () => void;
  closeSearch: () => void;
  attentionRef: RefObject<HTMLDivElement | null>;
  /** Scrolls to "Needs attention" and moves the focus there. */
  showAttention: () => void;
}

export function useCallsWorkspace(source: CallSource, search: SearchMode): CallsWorkspaceState {
  const { filters, change, setPage } = useCallFilters(source.dateRanges);
  // A link or a reload with a search in it opens the box with the search.
  const [opened, setOpened] = useState(() => filters.search !== '');
  const drawer = useCallDrawer();
  const attentionRef = useRef<HTMLDivElement>(null);
  const searchOpen = isSearchShown(search, opened);

  const closeSearch = useCallback(() => {
    setOpened(false);
    change({ search: '' });
  }, [change]);
  const toggleSearch = () => (searchOpen ? closeSearch() : setOpened(true));
  const showAttention = useCallback(() => {
    attentionRef.current?.scrollIntoView({ block: 'start' });
    attentionRef.current?.focus({ preventScroll: true });
  }, []);

  return {
    source,
    filters,
    change,
    setPage,
    drawer,
    searchOpen,
    toggleSearch,
    closeSearch,
    attentionRef,
    showAttention,
  };
}
