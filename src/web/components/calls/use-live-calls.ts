/**
 * Live updates of a calls view (issue 17): an EventSource on the source's stream; each call
 * event refreshes the view's log, stats, charts and outcomes, at most once per burst (a campaign
 * sending a hundred calls in a second refetches once, not a hundred times). EventSource reconnects
 * by itself and resumes with Last-Event-ID; a stream the server refused is retried after a pause.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CallSource } from '../../features/calls/call-source';
import { callKeys } from '../../features/calls/query-keys';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** Quiet time after the last event before refetching, and the longest a burst may delay it. */
export const LIVE_DEBOUNCE_MS = 400;
export const LIVE_MAX_WAIT_MS = 2000;
const RETRY_MS = 5000;

/** Calls `fn` once events stop for `quiet` ms, or `maxWait` ms after the first of a burst. */
export function debounceBurst(fn: () => void, quiet: number, maxWait: number) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let first: number | null = null;
  const fire = () => {
    timer = null;
    first = null;
    fn();
  };
  return {
    push(now = Date.now()) {
      first ??= now;
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, Math.min(quiet, first + maxWait - now)));
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      first = null;
    },
  };
}

export function useLiveCalls(source: CallSource): LiveState | null {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const url = source.eventsUrl;

  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    const refresh = debounceBurst(
      () => void queryClient.invalidateQueries({ queryKey: callKeys.source(source.key) }),
      LIVE_DEBOUNCE_MS,
      LIVE_MAX_WAIT_MS,
    );
    let events: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const open = () => {
      events = new EventSource(url);
      events.onopen = () => setState('live');
      events.onerror = () => {
        setState('reconnecting');
        // Closed for good (the server answered an error): try again later ourselves.
        if (events?.readyState === EventSource.CLOSED) retry = setTimeout(open, RETRY_MS);
      };
      events.addEventListener('call', () => refresh.push());
      events.addEventListener('refresh', () => refresh.push());
      events.addEventListener('end', () => {
        events?.close();
        setState('reconnecting');
      });
    };
    open();
    return () => {
      refresh.cancel();
      if (retry) clearTimeout(retry);
      events?.close();
    };
  }, [url, source.key, queryClient]);

  return url ? state : null;
}
