/**
 * The app's TanStack Query client with SPEC §9 defaults: data never goes stale by itself, no
 * refetch on focus, no polling, no retries. Queries that need otherwise (the client session,
 * the call log) say so where they are defined.
 */
import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
