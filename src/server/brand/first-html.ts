/**
 * The first HTML with the brand in it, so the login pages, the landing page and the 404
 * never flash the product's own name and blue before the app has asked for the brand. Into the
 * built index.html's <head> go: the title (the brand's name), the theme colour, the manifest,
 * the favicon and Apple touch icon (versioned addresses), a <style id="brand-style"> setting the
 * CSS variables, and a <script type="application/json" id="brand-data"> holding GET /api/brand's
 * answer, which src/web/lib/brand.ts reads. A JSON data block is never executed, so the CSP's
 * ban on inline script stays as it is.
 *
 * Safety: the style is built only from colours that match #rrggbb; the JSON escapes `<`, `>`, `&`
 * and the two line separators, so no name (`</script><script>…`, `<!--`) can end the block; the
 * title is HTML-escaped. Pure: the template and the brand in, the page out (the dev server's Vite
 * plugin uses it too).
 */
import {
  DEFAULT_ACCENT_COLOR,
  DEFAULT_PRIMARY_COLOR,
  defaultBrandSettings,
  type PublicBrand,
  toPublicBrand,
} from '../../contract/brand';
import { BRAND_ICON_FILES, brandIconPath, brandIconVersion } from './assets-version';

export const BRAND_DATA_ID = 'brand-data';
export const BRAND_STYLE_ID = 'brand-style';

const HEX = /^#[0-9a-f]{6}$/;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** JSON that is safe inside a <script> element: nothing in it can close the element or open a comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The CSS variables of the brand for the light theme (:root) and the dark one (.dark). A colour
 * that is not #rrggbb is left out, so the stylesheet's own value shows; so are all of them for
 * the product's own colours.
 */
export function brandStyle(brand: PublicBrand): string {
  // The product's own colours: the stylesheet draws them already (both themes, exactly), so the
  // element stays empty, as src/web/lib/brand.ts leaves it for them.
  if (
    brand.primaryColor.toLowerCase() === DEFAULT_PRIMARY_COLOR &&
    brand.accentColor.toLowerCase() === DEFAULT_ACCENT_COLOR
  ) {
    return '';
  }
  const p = brand.palette;
  const declarations = (vars: [string, string | null][]) =>
    vars
      .filter((pair): pair is [string, string] => pair[1] !== null)
      .map(([name, value]) => `${name}:${value}`)
      .join(';');
  const hex = (colour: string) => (HEX.test(colour) ? colour : null);
  // The palette has no dark hover: it moves away from the dark foreground, as the light one does.
  // Written as src/web/lib/brand.ts's brandCss writes it, so the hook taking over changes nothing.
  const darkHover = hex(p.primaryDark)
    ? `color-mix(in oklch,${p.primaryDark},${p.primaryDarkForeground === '#ffffff' ? 'black' : 'white'} 15%)`
    : null;
  const light = declarations([
    ['--primary', hex(p.primary)],
    ['--primary-foreground', hex(p.primaryForeground)],
    ['--primary-hover', hex(p.primaryHover)],
    ['--primary-text', hex(p.primaryText)],
    ['--accent-brand', hex(p.accent)],
  ]);
  const dark = declarations([
    ['--primary', hex(p.primaryDark)],
    ['--primary-foreground', hex(p.primaryDarkForeground)],
    ['--primary-hover', darkHover],
    ['--primary-text', hex(p.primaryDark)],
    ['--accent-brand', hex(p.accent)],
  ]);
  // Doubled selectors outrank the stylesheet's :root and .dark wherever either comes: under
  // `npm run dev` Vite adds the stylesheet after this style at run time.
  return `:root:root{${light}}:root.dark{${dark}}`;
}

/** What goes into <head>: every tag the brand decides. */
export function brandHead(brand: PublicBrand): string {
  const version = brandIconVersion(brand);
  const theme = HEX.test(brand.palette.primary) ? brand.palette.primary : null;
  return [
    `<title>${escapeHtml(brand.name)}</title>`,
    theme ? `<meta name="theme-color" content="${theme}" />` : '',
    `<meta name="application-name" content="${escapeHtml(brand.name)}" />`,
    '<link rel="manifest" href="/manifest.webmanifest" />',
    `<link rel="icon" type="image/png" sizes="32x32" href="${brandIconPath(BRAND_ICON_FILES.favicon, version)}" />`,
    `<link rel="apple-touch-icon" href="${brandIconPath(BRAND_ICON_FILES.any192, version)}" />`,
    `<style id="${BRAND_STYLE_ID}">${brandStyle(brand)}</style>`,
    `<script type="application/json" id="${BRAND_DATA_ID}">${scriptSafeJson(brand)}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
}

/**
 * The template with the brand's head: the template's own title, icon links and theme colour give
 * way, and the brand's tags go last in <head>, after the stylesheet, so its variables win over
 * the stylesheet's defaults.
 */
export function renderFirstHtml(template: string, brand: PublicBrand): string {
  const stripped = template
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<link\s[^>]*rel=["']?(?:shortcut )?icon["']?[^>]*>\s*/gi, '')
    .replace(/<meta\s[^>]*name=["']?theme-color["']?[^>]*>\s*/gi, '');
  const head = `    ${brandHead(brand)}\n  `;
  const at = stripped.search(/<\/head>/i);
  // A template without </head> (not one Vite writes) still gets the brand, at the top.
  return at === -1 ? head + stripped : stripped.slice(0, at) + head.trimStart() + stripped.slice(at);
}

/** The brand when the saved one cannot be read: the configured name and the product's colours. */
export function fallbackPublicBrand(name: string): PublicBrand {
  return toPublicBrand(defaultBrandSettings(name), { logoUrl: null, logoDarkUrl: null, iconUrl: null });
}

/**
 * The page server for one app: the template read once at start, the brand injected per request
 * from loadBrand's cache (the injected page is kept as long as the same brand is).
 */
export function createFirstHtml(
  template: string,
  loadPublicBrand: () => Promise<PublicBrand>,
  fallbackName: string,
  onError: (error: unknown) => void,
): () => Promise<string> {
  let last: { brand: PublicBrand; html: string } | null = null;
  return async () => {
    let brand: PublicBrand;
    try {
      brand = await loadPublicBrand();
    } catch (error) {
      // The page shell must load even when the database does not: the app shows its own errors.
      onError(error);
      brand = fallbackPublicBrand(fallbackName);
    }
    if (last?.brand !== brand) last = { brand, html: renderFirstHtml(template, brand) };
    return last.html;
  };
}
