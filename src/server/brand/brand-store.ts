/**
 * The saved brand: read from `agency_brand` and `brand_assets`, cached in the app's
 * dependencies for a few seconds, so every page, e-mail and report reads it without a query each time,
 * and a brand saved on one instance reaches the others within BRAND_CACHE_MS without a restart.
 * The routes drop this instance's cache after a save (forgetBrand), once the transaction commits.
 *
 * Owns the two tables; the routes (routes.ts, assets-routes.ts) and every renderer go through it.
 */
import type { Kysely } from 'kysely';
import {
  type BrandAssetUrls,
  type BrandAssetVariant,
  BrandSettings,
  defaultBrandSettings,
  type PublicBrand,
  toPublicBrand,
} from '../../contract/brand';
import { type BrandPalette, brandPalette } from '../../contract/brand-contrast';
import type { Config } from '../config';
import type { Database } from '../db/schema';

export const BRAND_CACHE_MS = 5_000;

export interface LoadedBrand {
  settings: BrandSettings;
  saved: boolean;
  updatedAt: number | null;
  assets: BrandAssetUrls;
  /** The content type of each stored image, for the manifest and the favicon link. */
  assetTypes: Partial<Record<BrandAssetVariant, string>>;
  palette: BrandPalette;
  publicBrand: PublicBrand;
}

/** The address of a stored image: changes with its bytes, so it may be cached for a year. */
export function brandAssetPath(variant: BrandAssetVariant, sha256: string, contentType: string): string {
  const ext = contentType === 'image/webp' ? 'webp' : contentType === 'image/svg+xml' ? 'svg' : 'png';
  return `/brand-assets/${variant}-${sha256.slice(0, 16)}.${ext}`;
}

/** This app's brand as last read, and when (one per app, `deps.brandCache`, made in bootstrap.ts). */
export interface BrandCache {
  entry: { at: number; brand: Promise<LoadedBrand> } | null;
}

export const createBrandCache = (): BrandCache => ({ entry: null });

/** What reading the brand takes: the database, the name it falls back to, the clock, the cache. */
interface BrandDeps {
  db: Kysely<Database>;
  config: Pick<Config, 'brandName'>;
  now: () => number;
  brandCache: BrandCache;
}

async function readBrand(db: Kysely<Database>, fallbackName: string): Promise<LoadedBrand> {
  const [row, assetRows] = await Promise.all([
    db.selectFrom('agency_brand').selectAll().where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('brand_assets').select(['variant', 'sha256', 'content_type']).execute(),
  ]);
  const defaults = defaultBrandSettings(fallbackName);
  // A row that no longer parses (edited by hand, or from a newer version) falls back field by
  // field to the defaults rather than taking every page down.
  const parsed = row ? BrandSettings.safeParse({ ...defaults, ...safeJson(row.settings) }) : null;
  const settings = parsed?.success ? parsed.data : defaults;
  const url = (variant: BrandAssetVariant) => {
    const asset = assetRows.find((a) => a.variant === variant);
    return asset ? brandAssetPath(variant, asset.sha256, asset.content_type) : null;
  };
  const assets = { logoUrl: url('light'), logoDarkUrl: url('dark'), iconUrl: url('icon') };
  const assetTypes = Object.fromEntries(assetRows.map((a) => [a.variant, a.content_type]));
  return {
    settings,
    saved: Boolean(row),
    updatedAt: row ? Number(row.updated_at) : null,
    assets,
    assetTypes,
    palette: brandPalette(settings.primaryColor, settings.accentColor),
    publicBrand: toPublicBrand(settings, assets, Boolean(row)),
  };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    // Checked in the same line: an object; its fields are each parsed by the caller.
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The brand as every page, e-mail and report shows it (cached for BRAND_CACHE_MS). */
export function loadBrand(deps: BrandDeps): Promise<LoadedBrand> {
  const cache = deps.brandCache;
  const hit = cache.entry;
  const now = deps.now();
  if (hit && now - hit.at < BRAND_CACHE_MS && now >= hit.at) return hit.brand;
  const brand = readBrand(deps.db, deps.config.brandName);
  const entry = { at: now, brand };
  cache.entry = entry;
  // A failed read is not cached: the next caller tries again.
  brand.catch(() => {
    if (cache.entry === entry) cache.entry = null;
  });
  return brand;
}

/** After a change: this instance's next read goes to the database. */
export function forgetBrand(deps: Pick<BrandDeps, 'brandCache'>): void {
  deps.brandCache.entry = null;
}

export async function saveBrandSettings(
  db: Kysely<Database>,
  settings: BrandSettings,
  adminId: string,
  now: number,
): Promise<void> {
  const values = { settings: JSON.stringify(settings), updated_at: now, updated_by: adminId };
  await db
    .insertInto('agency_brand')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** Back to "no brand saved": AGENCY_NAME, the product's colours and its own landing page. */
export async function deleteBrandSettings(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('agency_brand').where('id', '=', 1).execute();
}
