/**
 * "Live now" (issue 17): the calls in progress (the provider's active status), with their numbers,
 * pathway and how long they have run, kept fresh by the live stream. Shown only while there are some.
 */
import { useQuery } from '@tanstack/react-query';
import { PhoneCall } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { CallsPage } from '../../../contract/calls';
import { formatDuration } from '../../../contract/format';
import type { CallSource } from '../../features/calls/call-source';
import { callKeys } from '../../features/calls/query-keys';
import { getJson } from '../../lib/api';
import { formatPhone } from './phone';

/** At most this many calls are listed; the heading counts them all. */
const SHOWN = 5;

export function LiveNowStrip({ source }: { source: CallSource }) {
  const active = useQuery({
    queryKey: [...callKeys.source(source.key), 'live-now'],
    queryFn: () =>
      getJson<CallsPage>(`${source.callsUrl}?status=active&limit=${SHOWN}&sort=created&order=desc`),
    refetchInterval: 60_000,
  });
  const [now, setNow] = useState(() => Date.now());
  const calls = active.data?.calls ?? [];
  useEffect(() => {
    if (calls.length === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [calls.length]);
  if (calls.length === 0) return null;
  const total = active.data?.pagination.total ?? calls.length;

  return (
    <section
      aria-label="Live now"
      className="rounded-lg border border-emerald-200 bg-emerald-50/60 p-3"
      data-testid="live-now"
    >
      <h2 className="flex items-center gap-2 font-semibold text-emerald-900 text-sm">
        <PhoneCall className="size-4" aria-hidden="true" /> Live now: {total} {total === 1 ? 'call' : 'calls'}{' '}
        in progress
      </h2>
      <ul className="mt-2 grid grid-cols-1 gap-1.5 lg:grid-cols-2">
        {calls.map((call) => (
          <li
            key={call.id}
            className="flex items-center justify-between gap-3 rounded-md bg-card px-3 py-2 text-sm shadow-xs"
          >
            <span className="min-w-0 truncate">
              {formatPhone(call.fromNumber)} → {formatPhone(call.toNumber)}
              {call.pathway && <span className="text-muted-foreground"> · {call.pathway}</span>}
            </span>
            <span className="shrink-0 font-medium tabular-nums" title="Time since the call started">
              {formatDuration(Math.max(0, (now - Date.parse(call.createdAt)) / 1000))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
