/**
 * The version of the brand's generated icons: a hash of what they are drawn from (the name's
 * initial, the colours, the stored logo and icon, whose addresses carry their own hash). It is the
 * `?v=` of every icon address in the manifest and the first HTML, and the key of the icon cache,
 * so a saved brand changes the addresses and browsers fetch the new icons.
 * Pure (no sharp, no database): the dev server's HTML plugin imports it too.
 */
import { createHash } from 'node:crypto';
import type { PublicBrand } from '../../contract/brand';

export function brandIconVersion(brand: PublicBrand): string {
  const drawnFrom = [
    brand.name,
    brand.palette.primary,
    brand.palette.primaryForeground,
    brand.logoUrl,
    brand.iconUrl,
  ];
  return createHash('sha256').update(JSON.stringify(drawnFrom)).digest('hex').slice(0, 16);
}

/** The addresses of the generated icons (assets-routes.ts serves them). */
export const BRAND_ICON_FILES = {
  favicon: '32.png',
  any192: '192.png',
  any512: '512.png',
  maskable192: 'maskable-192.png',
  maskable512: 'maskable-512.png',
} as const;

export function brandIconPath(file: string, version: string): string {
  return `/brand-icons/${file}?v=${version}`;
}
