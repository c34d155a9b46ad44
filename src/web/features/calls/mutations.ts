/**
 * Calls writes, one hook per endpoint. They share one helper that refreshes every calls query
 * (by the 'calls' key prefix) and reports the outcome in a toast, including the unauthorized
 * path of SPEC §8: "Unauthorized" toast, then /api/login after 500 ms.
 */
import { type MutationFunction, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RemovedSamples, SeedResult, SyncProgress, SyncResult } from '../../../contract/calls';
import type { HandledResponse } from '../../../contract/outcomes';
import type { UnmaskedNumbers } from '../../../contract/privacy';
import type { QualityThresholdsState, QualityThresholdsUpdate } from '../../../contract/quality';
import { apiJson, isUnauthorizedError } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { handleUnauthorized } from '../../lib/session';
import { toast } from '../../lib/use-toast';
import type { CallSource, QualityThresholdsApi } from './call-source';
import { syncAndFollow } from './follow-sync';
import { callKeys } from './query-keys';

interface ToastText {
  title: string;
  description?: string;
}

interface CallsMutationOptions<TData, TVariables> {
  mutationFn: MutationFunction<TData, TVariables>;
  success: ToastText | ((data: TData) => ToastText);
  /** Shown when the server gives no message of its own. */
  failure: string;
}

export function useCallsMutation<TData, TVariables = void>(options: CallsMutationOptions<TData, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (data) => {
      toast(typeof options.success === 'function' ? options.success(data) : options.success);
      await queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return handleUnauthorized();
      failureToast('Error', error, options.failure);
    },
  });
}

/** The sync, followed to its end when it runs on in the background; `progress` while it does. */
export function useSyncCalls() {
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const showPlatform = useShowPlatformDetails();
  const mutation = useCallsMutation<SyncResult>({
    mutationFn: () => syncAndFollow(setProgress).finally(() => setProgress(null)),
    success: (result) => ({
      title: showPlatform ? 'Calls synced successfully from Bland AI' : 'Calls synced successfully',
      description: result?.message,
    }),
    failure: 'Failed to sync calls',
  });
  return { ...mutation, progress };
}

export function useSeedSampleCalls() {
  return useCallsMutation<SeedResult>({
    mutationFn: () => apiJson<SeedResult>('POST', '/api/demo/seed'),
    success: { title: 'Demo Data Added', description: 'Sample call logs have been added to your dashboard' },
    failure: 'Failed to seed demo data',
  });
}

export function useRemoveSampleCalls() {
  return useCallsMutation<RemovedSamples>({
    mutationFn: () => apiJson<RemovedSamples>('DELETE', '/api/client/sample-calls'),
    success: { title: 'Sample data removed', description: 'Only your real calls are on the dashboard now' },
    failure: 'Failed to remove the sample data',
  });
}

/** Deletes through the source's delete URL (the client's own, or the admin path with a client id). */
export function useDeleteCall(source: CallSource) {
  return useCallsMutation<unknown, string>({
    mutationFn: (callId) => {
      if (!source.deleteUrl) throw new Error('This view cannot delete calls');
      return apiJson('DELETE', source.deleteUrl(callId));
    },
    success: { title: 'Call deleted successfully' },
    failure: 'Failed to delete call',
  });
}

/** "Mark handled": the call leaves "Needs attention"; who and when are kept on the call. */
export function useMarkHandled(source: CallSource) {
  return useCallsMutation<HandledResponse, string>({
    mutationFn: (callId) => {
      if (!source.handledUrl) throw new Error('This view cannot mark calls handled');
      return apiJson<HandledResponse>('POST', source.handledUrl(callId));
    },
    success: { title: 'Marked handled' },
    failure: 'Failed to mark the call handled',
  });
}

/**
 * "Show number": one call's numbers in full, asked of the server each time (it records
 * the line in the activity log); kept only in this hook's state, never in the calls cache, so
 * every other view stays masked.
 */
export function useUnmaskNumbers(source: CallSource) {
  return useMutation({
    mutationFn: (callId: string) => {
      const url = source.unmaskUrl?.(callId);
      if (!url) throw new Error('Numbers cannot be shown here');
      return apiJson<UnmaskedNumbers>('POST', url);
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return handleUnauthorized();
      failureToast('Error', error, 'Could not show the number');
    },
  });
}

/**
 * Saves quality thresholds (a patch). The server re-classifies the calls under them in
 * the background: every calls read is refreshed now, and again when that ends (the card follows it).
 */
export function useSaveQualityThresholds(api: QualityThresholdsApi) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: QualityThresholdsUpdate) =>
      apiJson<QualityThresholdsState>('PUT', api.thresholds, patch),
    onSuccess: async (state) => {
      queryClient.setQueryData(callKeys.qualityThresholds(api.thresholds), state);
      await queryClient.invalidateQueries({ queryKey: callKeys.all });
    },
  });
}
