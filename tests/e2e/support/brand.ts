/**
 * The brand is shared by every spec on one server: a spec that saves one puts back what was there.
 * "Nothing saved" is a state of its own (`/` is then the product's landing page, a client's logout
 * lands there), so it is put back with DELETE, not by saving the default values.
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { BRAND_SETTING_FIELDS } from '../../../src/contract/brand';

export interface SavedBrand {
  saved: boolean;
  settings: Record<string, unknown>;
}

/** What is saved now, to hand to restoreBrand afterwards. */
export async function rememberBrand(admin: APIRequestContext): Promise<SavedBrand> {
  const brand = await (await admin.get('/api/admin/brand')).json();
  return {
    saved: brand.saved === true,
    settings: Object.fromEntries(BRAND_SETTING_FIELDS.map((key) => [key, brand[key]])),
  };
}

export async function restoreBrand(admin: APIRequestContext, before: SavedBrand): Promise<void> {
  const restored = before.saved
    ? await admin.put('/api/admin/brand', { data: before.settings })
    : await admin.delete('/api/admin/brand');
  expect(restored.status()).toBe(200);
}
