/**
 * Server state of the Brand tab: the saved brand (GET /api/admin/brand), its save and
 * its images. Every key starts with 'admin', so the admin area's writes refresh it too; a brand
 * write also refreshes the public brand the rest of the app reads (GET /api/brand).
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminBrand,
  BRAND_ASSET_MAX_BYTES,
  BRAND_ASSET_TYPES,
  type BrandAssetVariant,
  type BrandUpdate,
} from '../../../../contract/brand';
import { ApiError, apiJson, apiRequest, getJson } from '../../../lib/api';

export const brandKeys = {
  admin: ['admin', 'brand'] as const,
};

export const brandUrls = {
  admin: '/api/admin/brand',
  logo: (variant: BrandAssetVariant) => `/api/admin/brand/logo?variant=${variant}`,
  /** The public brand, read by every page (lib/brand.ts keys its query by this path). */
  public: '/api/brand',
};

export function useAdminBrand() {
  return useQuery({
    queryKey: brandKeys.admin,
    queryFn: () => getJson<AdminBrand>(brandUrls.admin),
    // Another admin may have changed it; the form resets from it only when it changes.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** The saved brand changed: this tab and every page showing the brand read it again. */
function refreshBrand(queryClient: QueryClient, brand?: AdminBrand) {
  if (brand) queryClient.setQueryData(brandKeys.admin, brand);
  void queryClient.invalidateQueries({ queryKey: brandKeys.admin });
  void queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === brandUrls.public,
  });
}

export function useSaveBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: BrandUpdate) => apiJson<AdminBrand>('PUT', brandUrls.admin, changes),
    onSuccess: (brand) => refreshBrand(queryClient, brand),
  });
}

const ACCEPTED_TYPES: readonly string[] = BRAND_ASSET_TYPES;
/** Some systems give a file no type; its name's ending decides then. */
const ACCEPTED_ENDINGS = /\.(png|webp|svg)$/i;

/** What is wrong with a chosen file before it is sent (the server checks the bytes again). */
export function brandFileProblem(file: Pick<File, 'type' | 'size' | 'name'>): string | null {
  const accepted = file.type ? ACCEPTED_TYPES.includes(file.type) : ACCEPTED_ENDINGS.test(file.name);
  if (!accepted) return 'Choose a PNG, WebP or SVG image';
  if (file.size > BRAND_ASSET_MAX_BYTES) return 'The image is larger than 1 MB';
  if (file.size === 0) return 'The file is empty';
  return null;
}

export function useUploadBrandImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ variant, file }: { variant: BrandAssetVariant; file: File }) => {
      const body = new FormData();
      body.append('file', file, file.name);
      // Multipart: the browser writes the boundary, so no Content-Type is set here.
      const res = await fetch(brandUrls.logo(variant), { method: 'POST', body, credentials: 'include' });
      if (!res.ok) {
        throw new ApiError(res.status, res.statusText, await res.text().catch(() => ''));
      }
      // res.json() returns any; the upload route answers { url }
      return (await res.json()) as { url: string };
    },
    onSuccess: () => refreshBrand(queryClient),
  });
}

export function useRemoveBrandImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variant: BrandAssetVariant) => apiRequest('DELETE', brandUrls.logo(variant)),
    onSuccess: () => refreshBrand(queryClient),
  });
}
