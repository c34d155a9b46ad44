/**
 * The state of one calls workspace: the filters (in the URL, use-call-filters.ts), the call the
 * drawer shows (in the URL, use-call-drawer.ts), the view (calls or quality, in the URL,
 * use-workspace-view.ts), whether the search box is open, and the "Needs attention" panel the
 * header's badge moves the focus to (from the Quality tab too: it goes back to the calls first).
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { CallSource } from './call-source';
import type { CallFilters } from './filters';
import { useCallDrawer } from './use-call-drawer';
import { useCallFilters } from './use-call-filters';
import { useWorkspaceView } from './use-workspace-view';
import { isSearchShown, type SearchMode, type WorkspaceView } from './workspace-layout';

export interface CallsWorkspaceState {
  source: CallSource;
  filters: CallFilters;
  /** Receives only what changed; every change but the page starts again at page 1. */
  change: (change: Partial<CallFilters>) => void;
  setPage: (page: number) => void;
  drawer: ReturnType<typeof useCallDrawer>;
  /** The calls, or conversation quality. */
  view: WorkspaceView;
  setView: (view: WorkspaceView) => void;
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
  const { view, setView } = useWorkspaceView();
  const attentionRef = useRef<HTMLDivElement>(null);
  // The search box belongs to the calls view.
  const searchOpen = view === 'calls' && isSearchShown(search, opened);
  // "Needs attention" asked for from the Quality tab: shown once the calls view has rendered it.
  const [attentionWanted, setAttentionWanted] = useState(false);

  const closeSearch = useCallback(() => {
    setOpened(false);
    change({ search: '' });
  }, [change]);
  const toggleSearch = () => {
    if (searchOpen) return closeSearch();
    setView('calls');
    setOpened(true);
  };
  const focusAttention = useCallback(() => {
    attentionRef.current?.scrollIntoView({ block: 'start' });
    attentionRef.current?.focus({ preventScroll: true });
  }, []);
  const showAttention = useCallback(() => {
    if (view === 'calls') return focusAttention();
    setView('calls');
    setAttentionWanted(true);
  }, [view, setView, focusAttention]);
  useEffect(() => {
    if (!attentionWanted || view !== 'calls') return;
    // The calls tab mounts its content a frame after it is chosen: wait for the panel (a second at most).
    let frame = 0;
    let tries = 0;
    const focusWhenShown = () => {
      if (attentionRef.current || tries++ > 60) {
        setAttentionWanted(false);
        focusAttention();
      } else frame = requestAnimationFrame(focusWhenShown);
    };
    focusWhenShown();
    return () => cancelAnimationFrame(frame);
  }, [attentionWanted, view, focusAttention]);

  return {
    source,
    filters,
    change,
    setPage,
    drawer,
    view,
    setView,
    searchOpen,
    toggleSearch,
    closeSearch,
    attentionRef,
    showAttention,
  };
}
