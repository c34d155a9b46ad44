/**
 * Which view of a calls workspace shows (the calls, or conversation quality), kept in
 * the page's URL (`?view=quality`) so a reload or a link opens the same tab; each switch is a
 * history entry, as a filter change is.
 */
import { useCallback } from 'react';
import { navigate, useSearch } from 'wouter/use-browser-location';
import { readView, type WorkspaceView, writeView } from './workspace-layout';

export function useWorkspaceView() {
  const view = readView(useSearch());
  const setView = useCallback((next: WorkspaceView) => {
    const query = writeView(window.location.search, next);
    if (query === (window.location.search || '')) return;
    navigate(`${window.location.pathname}${query}${window.location.hash}`);
  }, []);
  return { view, setView };
}
