/**
 * The agency's brand in the browser: `useBrand()` gives every page the PublicBrand
 * (name, logos, support details, palette) and `<BrandTheme />` keeps the page's colours on it.
 *
 * Where the brand comes from, first to last:
 * 1. The first HTML: the server injects `<script type="application/json" id="brand-data">` (the
 *    PublicBrand) and `<style id="brand-style">` (the palette as CSS variables). Read once, used as
 *    the query's initial data, so nothing flashes the product's default before the brand.
 * 2. Without it (`npm run dev`, a page served some other way): GET /api/brand through react-query.
 * 3. A failed or malformed answer: the product's own defaults (the stylesheet's colours).
 *
 * Only validated values reach the page: the palette must be #rrggbb (it is written into a style
 * sheet) and image addresses must be paths on this origin. This module never shows anything.
 */
import { type QueryClient, type QueryFunction, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BrandPaletteColors, PublicBrand } from '../../contract/brand';
import { DEFAULT_ACCENT_COLOR, DEFAULT_PRIMARY_COLOR } from '../../contract/brand-defaults';

export const BRAND_QUERY_KEY = ['/api/brand'] as const;
export const BRAND_DATA_ID = 'brand-data';
export const BRAND_STYLE_ID = 'brand-style';

/** The name before any brand is known: the server's own default for AGENCY_NAME. */
export const DEFAULT_BRAND_NAME = 'Call Analytics';

/** The product's brand: its name and the stylesheet's colours (src/web/styles.css, as hex). */
export const DEFAULT_BRAND: PublicBrand = {
  name: DEFAULT_BRAND_NAME,
  logoUrl: null,
  logoDarkUrl: null,
  iconUrl: null,
  primaryColor: DEFAULT_PRIMARY_COLOR,
  accentColor: DEFAULT_ACCENT_COLOR,
  primaryForeground: '#f8fafc',
  supportEmail: null,
  supportPhone: null,
  supportUrl: null,
  loginHeadline: null,
  loginText: null,
  footerText: null,
  saved: false,
  landingHeadline: `Welcome to ${DEFAULT_BRAND_NAME}`,
  landingText: '',
  palette: {
    primary: DEFAULT_PRIMARY_COLOR,
    primaryForeground: '#f8fafc',
    primaryHover: '#1447e6',
    primaryText: DEFAULT_PRIMARY_COLOR,
    primaryDark: '#2b7fff',
    primaryDarkForeground: '#0f172b',
    accent: DEFAULT_ACCENT_COLOR,
    accentForeground: '#ffffff',
  },
};

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * PublicBrand's fields and what each holds. Checked by hand, not with contract/brand.ts's schema:
 * this module is in the first bundle of every page, and zod with the brand's schemas (and the
 * contrast guard's colour library) would add ~30 KB gzipped to the landing page.
 * `satisfies` keeps the list in step with the contract's type.
 */
const PUBLIC_BRAND_FIELDS = {
  name: 'text',
  logoUrl: 'optional',
  logoDarkUrl: 'optional',
  iconUrl: 'optional',
  primaryColor: 'text',
  accentColor: 'text',
  primaryForeground: 'text',
  supportEmail: 'optional',
  supportPhone: 'optional',
  supportUrl: 'optional',
  loginHeadline: 'optional',
  loginText: 'optional',
  footerText: 'optional',
  saved: 'flag',
  landingHeadline: 'text',
  landingText: 'text',
  palette: 'palette',
} as const satisfies Record<keyof PublicBrand, 'text' | 'optional' | 'flag' | 'palette'>;

const PALETTE_FIELDS = [
  'primary',
  'primaryForeground',
  'primaryHover',
  'primaryText',
  'primaryDark',
  'primaryDarkForeground',
  'accent',
  'accentForeground',
] as const satisfies readonly (keyof BrandPaletteColors)[];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The PublicBrand's fields of `value` (others dropped), or null when one is missing or of another type. */
function publicBrandIn(value: unknown): PublicBrand | null {
  if (!isRecord(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(PUBLIC_BRAND_FIELDS)) {
    const v = value[field];
    if (kind === 'text' && typeof v !== 'string') return null;
    if (kind === 'optional' && v !== null && typeof v !== 'string') return null;
    if (kind === 'flag' && typeof v !== 'boolean') return null;
    if (kind === 'palette') {
      if (!isRecord(v)) return null;
      const palette: Record<string, string> = {};
      for (const name of PALETTE_FIELDS) {
        const color = v[name];
        if (typeof color !== 'string') return null;
        palette[name] = color;
      }
      out[field] = palette;
    } else out[field] = v;
  }
  // Built just above from PUBLIC_BRAND_FIELDS, each field checked for its kind: PublicBrand's shape.
  return out as PublicBrand;
}

/** An image address the page may load: a path on this origin (not `//host/…`, not `javascript:`). */
function sameOriginPath(url: string | null): string | null {
  return url?.startsWith('/') && !url.startsWith('//') && !url.includes('\\') ? url : null;
}

/** A support link the page may show: https only (the server refuses anything else on save). */
function httpsUrl(url: string | null): string | null {
  return url?.startsWith('https://') ? url : null;
}

/**
 * The PublicBrand in `value`, or null when it is not one. A palette colour that is not #rrggbb
 * makes the whole answer unusable: those values go into a style sheet.
 */
export function parsePublicBrand(value: unknown): PublicBrand | null {
  const brand = publicBrandIn(value);
  if (!brand) return null;
  if (!Object.values(brand.palette).every((c) => HEX.test(c))) return null;
  if (!brand.name.trim()) return null;
  return {
    ...brand,
    logoUrl: sameOriginPath(brand.logoUrl),
    logoDarkUrl: sameOriginPath(brand.logoDarkUrl),
    iconUrl: sameOriginPath(brand.iconUrl),
    supportUrl: httpsUrl(brand.supportUrl),
  };
}

/** The brand the server put in the first HTML, or null (absent, not JSON, not a PublicBrand). */
export function readBrandFromDocument(doc: Pick<Document, 'getElementById'>): PublicBrand | null {
  const text = doc.getElementById(BRAND_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return parsePublicBrand(JSON.parse(text));
  } catch {
    return null;
  }
}

/** True for the product's own colours: the stylesheet already draws them, nothing is written. */
export function isDefaultPalette(brand: Pick<PublicBrand, 'primaryColor' | 'accentColor'>): boolean {
  return (
    brand.primaryColor.toLowerCase() === DEFAULT_PRIMARY_COLOR &&
    brand.accentColor.toLowerCase() === DEFAULT_ACCENT_COLOR
  );
}

/**
 * The palette as the CSS variables of src/web/styles.css, for the light (:root) and dark (.dark)
 * themes: the same names and shape the server writes into the first HTML's `brand-style`.
 * `.dark` comes second so it wins over `:root` when both match the <html> element. The doubled
 * selectors (`:root:root`, `:root.dark`) outrank the stylesheet's own `:root` and `.dark` wherever
 * it comes: under `npm run dev` Vite adds the stylesheet after the brand's style at run time.
 */
export function brandCss(palette: BrandPaletteColors): string {
  for (const color of Object.values(palette)) {
    if (!HEX.test(color)) throw new Error(`Not a #rrggbb colour: ${color}`);
  }
  // The palette has no dark hover: move away from the dark foreground, as the light one does.
  const darkHoverToward = palette.primaryDarkForeground.toLowerCase() === '#ffffff' ? 'black' : 'white';
  return [
    `:root:root{--primary:${palette.primary};--primary-foreground:${palette.primaryForeground};`,
    `--primary-hover:${palette.primaryHover};--primary-text:${palette.primaryText};`,
    `--accent-brand:${palette.accent}}`,
    `:root.dark{--primary:${palette.primaryDark};--primary-foreground:${palette.primaryDarkForeground};`,
    `--primary-hover:color-mix(in oklch,${palette.primaryDark},${darkHoverToward} 15%);`,
    `--primary-text:${palette.primaryDark};--accent-brand:${palette.accent}}`,
  ].join('');
}

/** Which palette the page draws now: what the first HTML's style carried, until the hook moves it. */
let appliedPaletteKey: string | null | undefined;
let firstHtmlBrand: PublicBrand | null | undefined;

function paletteKey(brand: PublicBrand): string | null {
  return isDefaultPalette(brand) ? null : JSON.stringify(brand.palette);
}

function brandFromFirstHtml(): PublicBrand | null {
  if (firstHtmlBrand === undefined) {
    firstHtmlBrand = typeof document === 'undefined' ? null : readBrandFromDocument(document);
    const styled = typeof document !== 'undefined' && !!document.getElementById(BRAND_STYLE_ID);
    // The server's style sheet already draws the first HTML's brand: nothing to write for it.
    appliedPaletteKey = firstHtmlBrand && styled ? paletteKey(firstHtmlBrand) : null;
  }
  return firstHtmlBrand;
}

/**
 * Draws `brand`'s colours on the page when they differ from what it draws now (the admin saved a
 * brand, or there was no first-HTML brand). The product's own colours empty the style element, so
 * the stylesheet's defaults show.
 */
export function applyBrandPalette(doc: Document, brand: PublicBrand): void {
  brandFromFirstHtml();
  const key = paletteKey(brand);
  if (key === appliedPaletteKey) return;
  let style = doc.getElementById(BRAND_STYLE_ID);
  if (!style) {
    style = doc.createElement('style');
    style.id = BRAND_STYLE_ID;
    // Last in <head>: same specificity as the stylesheet's :root, so it must come after it.
    doc.head.append(style);
  }
  style.textContent = key === null ? '' : brandCss(brand.palette);
  appliedPaletteKey = key;
}

/**
 * GET /api/brand. `no-cache`: the answer is cached by browsers for a minute, and a refetch after
 * the admin saves must see the new brand. Anything but a PublicBrand keeps the defaults.
 */
export const fetchBrand: QueryFunction<PublicBrand, typeof BRAND_QUERY_KEY> = async ({ signal }) => {
  const res = await fetch(BRAND_QUERY_KEY[0], { signal, cache: 'no-cache', credentials: 'include' });
  if (!res.ok) return DEFAULT_BRAND;
  const body: unknown = await res.json().catch(() => null);
  return parsePublicBrand(body) ?? DEFAULT_BRAND;
};

function useBrandQuery() {
  return useQuery({
    queryKey: BRAND_QUERY_KEY,
    queryFn: fetchBrand,
    initialData: brandFromFirstHtml() ?? undefined,
  });
}

/** The agency's brand; the product's defaults until it is known, or when it cannot be read. */
export function useBrand(): PublicBrand {
  return useBrandQuery().data ?? DEFAULT_BRAND;
}

/**
 * False only while the brand is still being fetched (no first-HTML brand): a logo's box is kept
 * empty meanwhile and the title left alone, instead of showing the default and then the brand.
 */
export function useBrandReady(): boolean {
  const query = useBrandQuery();
  return query.data !== undefined || query.isError;
}

/** Keeps the page's CSS variables on the current brand. Mounted once, inside the query provider. */
export function BrandTheme(): null {
  const { data } = useBrandQuery();
  useEffect(() => {
    if (data) applyBrandPalette(document, data);
  }, [data]);
  return null;
}

/** After the admin saves the brand or its images: every page's brand is read again. */
export function refreshBrand(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: BRAND_QUERY_KEY });
}
