/**
 * The stored brand images (`brand_assets`, one row per variant): written by the upload and
 * removal routes, read by the image, icon and manifest routes. The brand's addresses and the
 * cache everyone reads them through stay in brand-store.ts (loadBrand, forgetBrand).
 */
import type { Kysely } from 'kysely';
import type { BrandAssetVariant } from '../../contract/brand';
import type { Database } from '../db/schema';
import type { StoredImage } from './assets-images';

export interface BrandAsset {
  variant: BrandAssetVariant;
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

export async function saveBrandAsset(
  db: Kysely<Database>,
  variant: BrandAssetVariant,
  image: StoredImage & { sha256: string },
  now: number,
): Promise<void> {
  const values = {
    content_type: image.contentType,
    bytes: image.bytes,
    sha256: image.sha256,
    width: image.width,
    height: image.height,
    updated_at: now,
  };
  await db
    .insertInto('brand_assets')
    .values({ variant, ...values })
    .onConflict((oc) => oc.column('variant').doUpdateSet(values))
    .execute();
}

/** The removed image's size, or null when there was none. */
export async function removeBrandAsset(
  db: Kysely<Database>,
  variant: BrandAssetVariant,
): Promise<{ width: number; height: number } | null> {
  const removed = await db
    .deleteFrom('brand_assets')
    .where('variant', '=', variant)
    .returning(['width', 'height'])
    .executeTakeFirst();
  return removed ? { width: Number(removed.width), height: Number(removed.height) } : null;
}

export async function readBrandAsset(
  db: Kysely<Database>,
  variant: BrandAssetVariant,
): Promise<BrandAsset | undefined> {
  const row = await db
    .selectFrom('brand_assets')
    .select(['content_type', 'bytes', 'sha256'])
    .where('variant', '=', variant)
    .executeTakeFirst();
  if (!row) return undefined;
  // better-sqlite3 and pg both answer a Buffer; a Uint8Array from another driver is wrapped, not copied.
  const bytes = Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes as Uint8Array);
  return { variant, contentType: row.content_type, bytes, sha256: row.sha256 };
}
