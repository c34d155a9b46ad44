/**
 * Which call the detail drawer shows, kept in the page's URL (`?call=ID&t=SECONDS`) so a link
 * opens the same call at the same moment, and closing the drawer takes the parameters away.
 */
import { useCallback, useState } from 'react';
import { readCallLink } from './transcript-timing';

function replaceSearch(mutate: (params: URLSearchParams) => void) {
  const url = new URL(window.location.href);
  mutate(url.searchParams);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export function useCallDrawer() {
  const [state, setState] = useState(() => readCallLink(window.location.search));
  const open = useCallback((callId: string) => {
    setState({ callId, seconds: null });
    replaceSearch((p) => {
      p.set('call', callId);
      p.delete('t');
    });
  }, []);
  const close = useCallback(() => {
    setState({ callId: null, seconds: null });
    replaceSearch((p) => {
      p.delete('call');
      p.delete('t');
    });
  }, []);
  return { callId: state.callId, startAt: state.seconds, open, close };
}
