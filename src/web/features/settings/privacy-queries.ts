/** The account's privacy settings (issue 36; issue 38 adds more): read and change them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PrivacySettings, PrivacyUpdate } from '../../../contract/privacy';
import { apiJson, getJson } from '../../lib/api';

export const privacyKey = ['privacy'] as const;

export function usePrivacySettings() {
  return useQuery({ queryKey: privacyKey, queryFn: () => getJson<PrivacySettings>('/api/client/privacy') });
}

export function useSavePrivacySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PrivacyUpdate) => apiJson<PrivacySettings>('PUT', '/api/client/privacy', changes),
    onSuccess: (settings) => {
      queryClient.setQueryData(privacyKey, settings);
      // Every answer carrying a caller's number changes with it (masked or not): read them again.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== privacyKey[0] });
    },
  });
}
