/** The agency's privacy defaults: GET/PUT /api/admin/privacy-defaults. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
// Types only: the contract's runtime half carries Zod.
import type { PrivacyDefaults, PrivacyDefaultsUpdate } from '../../../../contract/privacy';
import { apiJson, getJson } from '../../../lib/api';

const URL = '/api/admin/privacy-defaults';
export const privacyDefaultsKey = ['admin', 'privacy-defaults'] as const;

export function usePrivacyDefaults() {
  return useQuery({ queryKey: privacyDefaultsKey, queryFn: () => getJson<PrivacyDefaults>(URL) });
}

export function useSavePrivacyDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PrivacyDefaultsUpdate) => apiJson<PrivacyDefaults>('PUT', URL, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(privacyDefaultsKey, saved);
      // Clients following the defaults, and every client's limits, changed with them.
      void queryClient.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).startsWith('/api/admin/client-privacy/'),
      });
    },
  });
}
