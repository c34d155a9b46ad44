/**
 * The agency's brand: one record that names and colours everything a client sees.
 * - GET /api/brand: public, no secrets (`PublicBrand`), read before sign-in by the login pages.
 * - GET/PUT /api/admin/brand: the saved settings (`BrandSettings`) with the contrast report.
 * - POST/DELETE /api/admin/brand/logo?variant=light|dark|icon: the images.
 * AGENCY_NAME (or "Call Analytics") and the product's blue are the brand until one is saved.
 */
import { z } from 'zod';
import { brandPalette, type ContrastAdjustment } from './brand-contrast';
import { DEFAULT_ACCENT_COLOR, DEFAULT_PRIMARY_COLOR } from './brand-defaults';

export { DEFAULT_ACCENT_COLOR, DEFAULT_PRIMARY_COLOR } from './brand-defaults';

export const BRAND_ASSET_VARIANTS = ['light', 'dark', 'icon'] as const;
export type BrandAssetVariant = (typeof BRAND_ASSET_VARIANTS)[number];
export const BrandAssetQuery = z.object({ variant: z.enum(BRAND_ASSET_VARIANTS) });

/** 1 MB: a logo larger than that is a photograph, not a logo. */
export const BRAND_ASSET_MAX_BYTES = 1024 * 1024;
export const BRAND_ASSET_TYPES = ['image/png', 'image/webp', 'image/svg+xml'] as const;

const HexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour as #rrggbb')
  .transform((c) => c.toLowerCase());

/** Optional text: empty means "not set" (null), so a form can clear a field. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .nullable()
    .transform((v) => (v ? v : null));

const optionalEmail = z
  .string()
  .trim()
  .max(254)
  .nullable()
  .transform((v) => (v ? v : null))
  .pipe(z.string().email('Enter a valid e-mail address').nullable());

/** A public web address: https only, so the login page never links to plain HTTP or a script URL. */
const optionalHttpsUrl = z
  .string()
  .trim()
  .max(300)
  .nullable()
  .transform((v) => (v ? v : null))
  .pipe(
    z
      .string()
      .url('Enter a web address starting with https://')
      .refine((v) => v.startsWith('https://'), 'Enter a web address starting with https://')
      .nullable(),
  );

export const BrandSettings = z.object({
  name: z.string().trim().min(1, 'Enter the agency’s name').max(80, 'At most 80 characters'),
  primaryColor: HexColor,
  accentColor: HexColor,
  supportEmail: optionalEmail,
  supportPhone: optionalText(40),
  supportUrl: optionalHttpsUrl,
  loginHeadline: optionalText(120),
  loginText: optionalText(400),
  footerText: optionalText(300),
  /** The public page at `/` once a brand is saved; empty falls back to the agency's name. */
  landingHeadline: optionalText(120),
  landingText: optionalText(400),
  emailSenderName: optionalText(80),
  emailReplyTo: optionalEmail,
});
export type BrandSettings = z.infer<typeof BrandSettings>;

/** Every setting's name: what the admin's form edits and a test saves and puts back. */
export const BRAND_SETTING_FIELDS = BrandSettings.keyof().options;

/** PUT /api/admin/brand: the fields to change; the answer is the whole brand. */
export const BrandUpdate = BrandSettings.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one brand setting' });
export type BrandUpdate = z.infer<typeof BrandUpdate>;

export const ContrastAdjustmentSchema = z.object({
  pair: z.string(),
  from: z.string(),
  to: z.string(),
  ratio: z.number(),
}) satisfies z.ZodType<ContrastAdjustment>;

/** The colours the product draws, derived by the contrast guard (brand-contrast.ts). */
export const BrandPaletteSchema = z.object({
  primary: z.string(),
  primaryForeground: z.string(),
  primaryHover: z.string(),
  primaryText: z.string(),
  primaryDark: z.string(),
  primaryDarkForeground: z.string(),
  accent: z.string(),
  accentForeground: z.string(),
});
export type BrandPaletteColors = z.infer<typeof BrandPaletteSchema>;

/** GET /api/brand: what every page may show, signed in or not. */
export const PublicBrand = z.object({
  name: z.string(),
  logoUrl: z.string().nullable(),
  logoDarkUrl: z.string().nullable(),
  iconUrl: z.string().nullable(),
  primaryColor: z.string(),
  accentColor: z.string(),
  primaryForeground: z.string(),
  supportEmail: z.string().nullable(),
  supportPhone: z.string().nullable(),
  supportUrl: z.string().nullable(),
  loginHeadline: z.string().nullable(),
  loginText: z.string().nullable(),
  footerText: z.string().nullable(),
  /**
   * True once an admin has saved a brand: `/` is then the agency's page (its headline, text and
   * links) and a client's logout returns to its sign-in page, not to the product's landing page.
   */
  saved: z.boolean(),
  landingHeadline: z.string(),
  landingText: z.string(),
  palette: BrandPaletteSchema,
});
export type PublicBrand = z.infer<typeof PublicBrand>;

/** GET/PUT /api/admin/brand. */
export const AdminBrand = BrandSettings.extend({
  logoUrl: z.string().nullable(),
  logoDarkUrl: z.string().nullable(),
  iconUrl: z.string().nullable(),
  /** False until an admin saves a brand: AGENCY_NAME and the product's colours are showing. */
  saved: z.boolean(),
  updatedAt: z.string().nullable(),
  palette: BrandPaletteSchema,
  contrast: z.object({ adjusted: z.array(ContrastAdjustmentSchema) }),
});
export type AdminBrand = z.infer<typeof AdminBrand>;

export const BrandAssetUploaded = z.object({ url: z.string() });

export interface BrandAssetUrls {
  logoUrl: string | null;
  logoDarkUrl: string | null;
  iconUrl: string | null;
}

/** What the agency's landing page says when its admin has not written its own words. */
export function defaultLandingHeadline(name: string): string {
  return `Welcome to ${name}`;
}
export const DEFAULT_LANDING_TEXT = 'Sign in to see your calls, recordings, results and cost in one place.';

/** The public brand from the saved settings and the images' addresses, palette included. */
export function toPublicBrand(settings: BrandSettings, assets: BrandAssetUrls, saved = false): PublicBrand {
  const { adjusted: _, ...palette } = brandPalette(settings.primaryColor, settings.accentColor);
  return {
    name: settings.name,
    ...assets,
    primaryColor: settings.primaryColor,
    accentColor: settings.accentColor,
    primaryForeground: palette.primaryForeground,
    supportEmail: settings.supportEmail,
    supportPhone: settings.supportPhone,
    supportUrl: settings.supportUrl,
    loginHeadline: settings.loginHeadline,
    loginText: settings.loginText,
    footerText: settings.footerText,
    saved,
    landingHeadline: settings.landingHeadline ?? defaultLandingHeadline(settings.name),
    landingText: settings.landingText ?? DEFAULT_LANDING_TEXT,
    palette,
  };
}

/** The brand before any is saved: AGENCY_NAME and the product's own colours. */
export function defaultBrandSettings(name: string): BrandSettings {
  return {
    name,
    primaryColor: DEFAULT_PRIMARY_COLOR,
    accentColor: DEFAULT_ACCENT_COLOR,
    supportEmail: null,
    supportPhone: null,
    supportUrl: null,
    loginHeadline: null,
    loginText: null,
    footerText: null,
    landingHeadline: null,
    landingText: null,
    emailSenderName: null,
    emailReplyTo: null,
  };
}

export const BRAND_TEXTS = {
  tab: 'Brand',
  heading: 'Brand',
  intro: 'Your agency’s name, logo and colours on every page, e-mail and report your clients see.',
  saved: 'Brand saved',
  adjustedHeading: 'Adjusted for readability',
  previewHeading: 'Preview',
  checkDns: 'Check DNS',
} as const;
