/**
 * "Live now": the calls in progress (the provider's active status), with their numbers,
 * pathway and how long they have run, kept fresh by the live stream. Shown only while there are some.
 */
import { PhoneCall } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { CallsPage } from '../../../contract/calls';
import { formatDuration } from '../../../contract/format';
import { getJson } from '../../lib/api';
import { useSeededQuery } from '../../lib/first-screen-pending';
import type { CallSource } from './call-source';
import { formatPhone } from './phone';
import { callKeys } from './query-keys';
import type { LiveActivity } from './use-live-calls';

/** At most this many calls are listed; the heading counts them all. */
const SHOWN = 5;

export function LiveNowStrip({ source, inProgress }: { source: CallSource; inProgress: LiveActivity[] }) {
  // Seeded by the first screen's read.
  const active = useSeededQuery({
    queryKey: [...callKeys.source(source.key), 'live-now'],
    queryFn: () =>
      getJson<CallsPage>(`${source.callsUrl}?status=active&limit=${SHOWN}&sort=created&order=desc`),
    refetchInterval: 60_000,
  });
  const [now, setNow] = useState(() => Date.now());
  const calls = active.data?.calls ?? [];
  // Calls the provider reports in progress that are not stored yet (Bland stores a call when it ends).
  const stored = new Set(calls.map((c) => c.providerCallId));
  const announced = inProgress.filter((a) => !stored.has(a.providerCallId));
  const shown = calls.length + announced.length;
  useEffect(() => {
    if (shown === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [shown]);
  if (shown === 0) return null;
  const total = (active.data?.pagination.total ?? calls.length) + announced.length;

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
        {announced.slice(0, SHOWN).map((a) => (
          <li
            key={a.providerCallId}
            className="flex min-w-0 items-center justify-between gap-3 rounded-md bg-card px-3 py-2 text-sm shadow-xs"
          >
            <span className="min-w-0 truncate">
              Call <span className="font-mono text-xs">{a.providerCallId.slice(0, 8)}</span>
              <span className="text-muted-foreground"> · details when it ends</span>
            </span>
            <span className="shrink-0 font-medium tabular-nums" title="Time since its first activity">
              {formatDuration(Math.max(0, (now - a.since) / 1000))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
