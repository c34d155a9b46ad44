/**
 * Whether a dashboard's first-screen read (features/calls/first-screen.ts) is still on
 * its way. The page renders at once with its loading states; meanwhile the queries that read will
 * seed hold back (`enabled: false`: TanStack Query then reports them pending, so each part shows
 * its skeleton), and once the parts are written into their cache entries they have fresh data and
 * ask nothing. If the read fails, the flag drops and they fetch for themselves.
 *
 * A leaf module: the query hooks of calls, billing, two-factor and admin read it, and first-screen.ts
 * imports those hooks' keys, so it cannot live there.
 */
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

const FirstScreenPendingContext = createContext(false);

/** Around a dashboard page: `value` true while its first-screen read is pending. */
export const FirstScreenPending = FirstScreenPendingContext.Provider;

export function useFirstScreenPending(): boolean {
  return useContext(FirstScreenPendingContext);
}

/** A seeded query's `enabled`: its own condition, and not while the first screen is being read. */
function useEnabledAfterFirstScreen(enabled = true): boolean {
  const pending = useFirstScreenPending();
  return enabled && !pending;
}

/**
 * useQuery for a query the first-screen read seeds: held back while that read is on its
 * way, with its own `enabled` condition beside.
 */
export function useSeededQuery<TData, TKey extends QueryKey>(
  options: Omit<UseQueryOptions<TData, Error, TData, TKey>, 'enabled'> & { enabled?: boolean },
) {
  const enabled = useEnabledAfterFirstScreen(options.enabled);
  return useQuery({ ...options, enabled });
}
