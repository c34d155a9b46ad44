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
  /** `seconds`: the moment to open at (a worst call's slow answer, say); none: the start. */
  const open = useCallback((callId: string, seconds: number | null = null) => {
    setState({ callId, seconds });
    replaceSearch((p) => {
      p.set('call', callId);
      if (seconds === null) p.delete('t');
      else p.set('t', String(Math.max(0, Math.floor(seconds))));
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
