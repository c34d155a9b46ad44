/**
 * Two-factor sign-in's requests, the same for a client user (/api/client/2fa) and an
 * admin (/api/admin/2fa): its state, set-up, enable, disable and the requirement.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
// Types only: the contract's runtime half carries Zod.
import type {
  TwoFactorRecoveryCodes,
  TwoFactorRequirementBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../../contract/two-factor';
import { apiJson, getJson } from '../../lib/api';
import { useSeededQuery } from '../../lib/first-screen-pending';

export type TwoFactorApi = '/api/client/2fa' | '/api/admin/2fa';

export const twoFactorKey = (api: TwoFactorApi) => [api] as const;

/** The client's state is part of the dashboard's first-screen read: asked after it. */
export function useTwoFactorStatus(api: TwoFactorApi, enabled = true) {
  return useSeededQuery({
    queryKey: twoFactorKey(api),
    queryFn: () => getJson<TwoFactorStatus>(api),
    enabled,
  });
}

export function useStartTwoFactorSetup(api: TwoFactorApi) {
  return useMutation({ mutationFn: () => apiJson<TwoFactorSetup>('POST', `${api}/setup`) });
}

/** After a change the state is read again, and with it whatever a requirement was blocking. */
function useRefresh(api: TwoFactorApi) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: twoFactorKey(api) });
}

export function useEnableTwoFactor(api: TwoFactorApi) {
  return useMutation({
    mutationFn: (code: string) => apiJson<TwoFactorRecoveryCodes>('POST', `${api}/enable`, { code }),
  });
}

export function useDisableTwoFactor(api: TwoFactorApi) {
  const refresh = useRefresh(api);
  return useMutation({
    mutationFn: (code: string) => apiJson<{ success: true }>('POST', `${api}/disable`, { code }),
    onSuccess: refresh,
  });
}

export function useSetTwoFactorRequirement(api: TwoFactorApi) {
  const refresh = useRefresh(api);
  return useMutation({
    mutationFn: (body: TwoFactorRequirementBody) =>
      apiJson<TwoFactorRequirementBody>('PUT', `${api}/requirement`, body),
    onSuccess: refresh,
  });
}

/** The secret in an otpauth:// URL, in groups of four for typing into an app by hand. */
export function manualKeyOf(otpauthUrl: string): string {
  const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The QR code's SVG as an image source: an <img> cannot run anything the SVG might carry. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
