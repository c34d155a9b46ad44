/**
 * Live updates of a calls view: an EventSource on the source's stream; each call
 * event refreshes the view's log, stats, charts and outcomes, at most once per burst (a campaign
 * sending a hundred calls in a second refetches once, not a hundred times). EventSource reconnects
 * by itself and resumes with Last-Event-ID; a stream the server refused is retried after a pause.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CallSource } from './call-source';
import { callKeys } from './query-keys';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** Quiet time after the last event before refetching, and the longest a burst may delay it. */
export const LIVE_DEBOUNCE_MS = 250;
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

/** A call the provider reports in progress that is not stored yet (its live events). */
export interface LiveActivity {
  providerCallId: string;
  /** When its first and latest activity arrived (ms). */
  since: number;
  last: number;
}

export interface LiveCalls {
  /** null: this view has no stream (the demo). */
  state: LiveState | null;
  inProgress: LiveActivity[];
}

/** Activity older than this with nothing new is taken as over (the call's own event may be lost). */
export const ACTIVITY_TTL_MS = 3 * 60 * 1000;

/** The activity list after one event: kept, started, or ended by the call's own event. */
export function nextActivity(
  list: LiveActivity[],
  event: { kind: 'activity' | 'call'; providerCallId: string },
  now: number,
): LiveActivity[] {
  const others = list.filter(
    (a) => a.providerCallId !== event.providerCallId && a.last > now - ACTIVITY_TTL_MS,
  );
  if (event.kind === 'call') return others;
  const known = list.find((a) => a.providerCallId === event.providerCallId);
  return [...others, { providerCallId: event.providerCallId, since: known?.since ?? now, last: now }];
}

export function useLiveCalls(source: CallSource): LiveCalls {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const [inProgress, setInProgress] = useState<LiveActivity[]>([]);
  const url = source.eventsUrl;

  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    const refresh = debounceBurst(
      () => void queryClient.invalidateQueries({ queryKey: callKeys.source(source.key) }),
      LIVE_DEBOUNCE_MS,
      LIVE_MAX_WAIT_MS,
    );
    const track = (kind: 'activity' | 'call', data: string) => {
      try {
        const providerCallId = JSON.parse(data).providerCallId;
        if (typeof providerCallId === 'string')
          setInProgress((list) => nextActivity(list, { kind, providerCallId }, Date.now()));
      } catch {
        // not ours to read: the refresh below still happens
      }
    };
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
      events.addEventListener('call', (e) => {
        // A named SSE event is typed Event; EventSource sends a MessageEvent
        track('call', (e as MessageEvent<string>).data);
        refresh.push();
      });
      events.addEventListener('refresh', () => refresh.push());
      // A named SSE event is typed Event; EventSource sends a MessageEvent
      events.addEventListener('activity', (e) => track('activity', (e as MessageEvent<string>).data));
      events.addEventListener('end', () => {
        events?.close();
        setState('reconnecting');
      });
    };
    open();
    // Calls whose activity stopped without their own event are dropped after a while.
    const expiry = setInterval(
      () => setInProgress((list) => list.filter((a) => a.last > Date.now() - ACTIVITY_TTL_MS)),
      15_000,
    );
    return () => {
      refresh.cancel();
      clearInterval(expiry);
      if (retry) clearTimeout(retry);
      events?.close();
    };
  }, [url, source.key, queryClient]);

  return { state: url ? state : null, inProgress };
}
