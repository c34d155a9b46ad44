/**
 * The dashboard's first screen in one request: GET {source.dashboardUrl} with the
 * filters in the page's URL, its parts written into the separate queries' cache entries (the log,
 * stats, charts, outcomes, attention, live calls, column choices, sample data, two-factor state,
 * subscription, the admin's client header and team), so the components that read them find them
 * there and ask nothing. The page is drawn meanwhile with its loading states, inside
 * `FirstScreenPending` (lib/first-screen-pending.ts), which holds those queries back until the
 * read is in (or has failed: then they fetch as before). Only the first screen reads it: later
 * filters, pages, refreshes and live updates use the separate endpoints (features/calls/queries.ts),
 * one way.
 *
 * main.tsx starts the read for the page's URL before the page's code has arrived; the page then
 * joins the same query. Kept light (no components): it is part of the main bundle.
 */
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminClientDashboard, ClientDashboard, DemoDashboard } from '../../../contract/dashboard';
import { twoFactorKey } from '../../components/two-factor/two-factor-queries';
import { getJson } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';
import { adminClientUsersKey } from '../admin/client-users-queries';
import { adminKeys } from '../admin/queries';
import { adminCallSource, type CallSource, CLIENT_CALL_SOURCE, DEMO_CALL_SOURCE } from './call-source';
import type { ChartData } from './chart-points';
import {
  analyticsSearchParams,
  type CallFilters,
  callsSearchParams,
  chartInterval,
  DEFAULT_FILTERS,
  isCustomRange,
} from './filters';
import { callKeys, preferencesKey } from './query-keys';
import { readFilters } from './url-filters';

/**
 * contract/dashboard.ts's DASHBOARD_ATTENTION_LIMIT (the panel's and the badge's 5), not imported
 * at run time: that module's schemas (and the contracts they import) would join the main bundle.
 */
const DASHBOARD_ATTENTION_LIMIT = 5;

type AnyDashboard = Partial<ClientDashboard & AdminClientDashboard> &
  (ClientDashboard | AdminClientDashboard | DemoDashboard);

/** The filters a view starts with: the page's URL, the defaults for the rest (as useCallFilters reads them). */
export function initialFilters(source: CallSource, search = window.location.search): CallFilters {
  return readFilters(search, DEFAULT_FILTERS, source.dateRanges);
}

/** The one request's query: the log's page, the stats' and charts' window, the chart's interval. */
export function firstScreenParams(filters: CallFilters, now: number): URLSearchParams {
  const params = callsSearchParams(filters, now);
  for (const [name, value] of analyticsSearchParams(filters, now)) params.set(name, value);
  params.set('interval', chartInterval(filters));
  params.set('attentionLimit', String(DASHBOARD_ATTENTION_LIMIT));
  return params;
}

/** Writes each part where its own query keeps it; a part left out (no permission) is not written. */
export function seedFirstScreen(
  queryClient: QueryClient,
  source: CallSource,
  filters: CallFilters,
  params: URLSearchParams,
  data: AnyDashboard,
): void {
  const set = (key: readonly unknown[], value: unknown) => {
    if (value !== undefined) queryClient.setQueryData(key, value);
  };
  const key = source.key;
  set(callKeys.list(key, filters), data.calls);
  set(callKeys.stats(key, filters), data.stats);
  set(callKeys.overTime(key, filters), {
    points: data.callsOverTime,
    interval: chartInterval(filters),
    startDate: params.get('startDate') ?? '',
    endsNow: !isCustomRange(filters),
  } satisfies ChartData);
  set(callKeys.outcomes(key, filters), data.outcomesSummary);
  set(callKeys.outcomesOverTime(key, filters), data.outcomesOverTime);
  set([...callKeys.attention(key), DASHBOARD_ATTENTION_LIMIT], data.attention);
  set([...callKeys.source(key), 'live-now'], data.liveCalls);
  if (source.preferencesUrl) set(preferencesKey(source.preferencesUrl), data.preferences);
  set(callKeys.sampleData(), data.sampleData);
  set(twoFactorKey('/api/client/2fa'), data.twoFactor);
  set(billingKeys.subscription(), data.subscription);
  if (data.client) {
    set(adminKeys.clientData(data.client.id), { client: data.client });
    set(adminClientUsersKey(data.client.id), data.users);
  }
}

function firstScreenQuery(queryClient: QueryClient, source: CallSource, filters: CallFilters) {
  return {
    queryKey: ['first-screen', source.key, filters] as const,
    queryFn: async () => {
      const params = firstScreenParams(filters, Date.now());
      const data = await getJson<AnyDashboard>(`${source.dashboardUrl}?${params}`);
      seedFirstScreen(queryClient, source, filters, params, data);
      // What the page needs is in the other queries now; this one only says it is done.
      return true;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  };
}

/**
 * The first screen's read for this view, started once with the filters the page opened with.
 * `settled`: the parts are in the cache (or the read failed and the separate queries take over);
 * the page gives `!settled` to `FirstScreenPending` around the view.
 */
export function useFirstScreen(source: CallSource | null): { settled: boolean } {
  const queryClient = useQueryClient();
  const [filters] = useState(() => (source ? initialFilters(source) : null));
  const query = useQuery({
    ...firstScreenQuery(queryClient, source ?? DEMO_CALL_SOURCE, filters ?? DEFAULT_FILTERS),
    enabled: source?.dashboardUrl !== undefined && filters !== null,
  });
  return { settled: !source?.dashboardUrl || !query.isPending };
}

/** The view a first-screen path shows, if any. */
export function firstScreenSource(pathname: string): CallSource | null {
  if (pathname === '/dashboard') return CLIENT_CALL_SOURCE;
  if (pathname === '/demo' || pathname === '/demo-dashboard') return DEMO_CALL_SOURCE;
  const admin = /^\/admin\/client\/([^/]+)\/?$/.exec(pathname);
  return admin?.[1] ? adminCallSource(decodeURIComponent(admin[1])) : null;
}

/**
 * Starts the page's first-screen read at once, while its code is still on the way (main.tsx). Not
 * the demo's: its read may first bring the demo's calls up to date, which holds the server (and so
 * the page's code) for a while; its header shows first instead, then the read.
 */
export function prefetchFirstScreen(queryClient: QueryClient, location: Location): void {
  const source = firstScreenSource(location.pathname);
  if (!source?.dashboardUrl || source.key === DEMO_CALL_SOURCE.key) return;
  // A failure is the page's to handle when it mounts (the separate queries then read).
  void queryClient.prefetchQuery(
    firstScreenQuery(queryClient, source, initialFilters(source, location.search)),
  );
}
