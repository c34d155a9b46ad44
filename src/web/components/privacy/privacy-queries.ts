/**
 * One account's privacy requests, for the client's own endpoints or the
 * admin's naming the client (`PrivacyApi`): the settings (read again each second while stored
 * calls are being redacted), their save, the erasures (read again each second while one runs),
 * starting one, and the caller's data export saved as a file.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
// Types only: the contract's runtime half carries Zod.
import type {
  ErasureList,
  ErasurePreview,
  ErasureRequestBody,
  PrivacySettings,
  PrivacyUpdate,
  SubjectExportFormat,
} from '../../../contract/privacy';
import { callKeys } from '../../features/calls/query-keys';
import { apiJson, apiRequest, getJson } from '../../lib/api';
import type { PrivacyApi } from './privacy-api';
import { attachmentFileName } from './privacy-draft';

const POLL_MS = 1000;

export const privacyKeys = {
  settings: (api: PrivacyApi) => [api.settings] as const,
  erasures: (api: PrivacyApi) => [api.erasure] as const,
};

export function usePrivacySettings(api: PrivacyApi) {
  return useQuery({
    queryKey: privacyKeys.settings(api),
    queryFn: () => getJson<PrivacySettings>(api.settings),
    refetchInterval: (query) => (query.state.data?.reRedaction.state === 'running' ? POLL_MS : false),
  });
}

export function useSavePrivacySettings(api: PrivacyApi) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PrivacyUpdate) => apiJson<PrivacySettings>('PUT', api.settings, changes),
    onSuccess: (settings) => {
      queryClient.setQueryData(privacyKeys.settings(api), settings);
      // Calls change with it (numbers masked or not, texts redacted, transcripts removed): read them again.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== api.settings });
    },
  });
}

export function useErasures(api: PrivacyApi) {
  return useQuery({
    queryKey: privacyKeys.erasures(api),
    queryFn: () => getJson<ErasureList>(api.erasure),
    refetchInterval: (query) =>
      query.state.data?.erasures.some((e) => e.state === 'running') ? POLL_MS : false,
  });
}

/**
 * What erasing this subject would remove (count and the newest few), asked when the confirmation
 * opens; read afresh each time it opens, never from an older answer.
 */
export function useErasurePreview(api: PrivacyApi, subject: ErasureRequestBody | null) {
  return useQuery({
    queryKey: [api.erasure, 'preview', subject] as const,
    queryFn: () => apiJson<ErasurePreview>('POST', `${api.erasure}/preview`, subject),
    enabled: subject !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function useStartErasure(api: PrivacyApi) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ErasureRequestBody) => apiJson<{ id: string }>('POST', api.erasure, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: privacyKeys.erasures(api) });
      // The caller's calls are going: the calls views read again (the erasure runs in the background).
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
  });
}

/** Saves a blob under a name, as a download the browser shows. */
export function saveFile(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken its copy once the click is handled; free the blob a little later.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** POST {phone}: every call of that number as JSON, saved under the server's file name. */
export function useSubjectExport(api: PrivacyApi) {
  return useMutation({
    mutationFn: async ({ phone, format }: { phone: string; format: SubjectExportFormat }) => {
      const res = await apiRequest('POST', `${api.subjectExport}?format=${format}`, { phone });
      const name = attachmentFileName(res.headers.get('content-disposition'), `caller-data.${format}`);
      saveFile(await res.blob(), name);
      return name;
    },
  });
}
