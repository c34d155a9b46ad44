/**
 * The brand's generated icons: the favicon (32 px), the home-screen icons of the web app
 * manifest (192 and 512 px, "any" and "maskable") and the Apple touch icon, drawn with sharp from,
 * in order of preference:
 *   1. the uploaded app icon;
 *   2. the light logo, centred on a square of the primary colour (on white when the logo would not
 *      read on the primary: less than 3:1, WCAG's figure for graphics);
 *   3. the name's initial in the primary's foreground colour on the primary (an SVG built here,
 *      the letter escaped, drawn by sharp).
 * A "maskable" icon keeps its picture inside the central 80% circle that launchers may crop to.
 * Icons are cached in memory by the brand's icon version (assets-version.ts), so each is drawn
 * once per brand per instance.
 */
import { wcagContrast } from 'culori';
import sharp from 'sharp';
import type { PublicBrand } from '../../contract/brand';
import { DEFAULT_PRIMARY_COLOR } from '../../contract/brand';
import type { BrandAsset } from './assets-store';

export type IconPurpose = 'any' | 'maskable';
export const ICON_SIZES = [32, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** What the icons are drawn from; the bytes are read only when an icon is not cached. */
export interface IconSources {
  icon?: BrandAsset;
  logo?: BrandAsset;
}

const HEX = /^#[0-9a-f]{6}$/;
const WHITE = '#ffffff';
/** WCAG's minimum for graphics and large text: the logo against the square it sits on. */
const LOGO_CONTRAST = 3;
/** Share of the side the picture takes: "any" icons are full; maskable ones stay in the safe circle. */
const LOGO_SHARE: Record<IconPurpose, number> = { any: 0.82, maskable: 0.6 };
const ICON_SHARE: Record<IconPurpose, number> = { any: 1, maskable: 0.72 };

const MAX_CACHED = 64;
const cache = new Map<string, Promise<Buffer>>();

/**
 * The PNG for one icon of the brand, cached by `version`. `sources` is called only on a miss, so
 * a cached icon costs no database read.
 */
export function brandIcon(
  brand: PublicBrand,
  version: string,
  size: IconSize,
  purpose: IconPurpose,
  sources: () => Promise<IconSources>,
): Promise<Buffer> {
  const key = `${version}/${purpose}/${size}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Old brands' icons are not worth keeping: a saved brand replaces them all.
  if (cache.size >= MAX_CACHED) cache.clear();
  const drawn = sources().then((found) => drawIcon(brand, size, purpose, found));
  cache.set(key, drawn);
  drawn.catch(() => cache.delete(key));
  return drawn;
}

async function drawIcon(
  brand: PublicBrand,
  size: IconSize,
  purpose: IconPurpose,
  sources: IconSources,
): Promise<Buffer> {
  const primary = safeHex(brand.palette.primary, DEFAULT_PRIMARY_COLOR);
  if (sources.icon) {
    const share = ICON_SHARE[purpose];
    if (share === 1) return sharp(sources.icon.bytes).resize(size, size, { fit: 'cover' }).png().toBuffer();
    // The uploaded icon's own corner colour fills the margin, so a full-bleed icon looks whole.
    const background = await cornerColour(sources.icon.bytes);
    return onSquare(sources.icon.bytes, size, share, background);
  }
  if (sources.logo) {
    const logoColour = await averageOpaqueColour(sources.logo.bytes);
    const background =
      logoColour &&
      wcagContrast(logoColour, primary) < LOGO_CONTRAST &&
      wcagContrast(logoColour, WHITE) > wcagContrast(logoColour, primary)
        ? WHITE
        : primary;
    return onSquare(sources.logo.bytes, size, LOGO_SHARE[purpose], background);
  }
  const svg = initialSvg(brand.name, primary, safeHex(brand.palette.primaryForeground, WHITE), purpose);
  return sharp(Buffer.from(svg), { density: (72 * size) / 100 })
    .resize(size, size)
    .png()
    .toBuffer();
}

/** `picture` scaled to `share` of a `size` square of `background`, centred. */
async function onSquare(picture: Buffer, size: number, share: number, background: string): Promise<Buffer> {
  const box = Math.max(1, Math.round(size * share));
  const fitted = await sharp(picture).resize(box, box, { fit: 'inside' }).png().toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background } })
    .composite([{ input: fitted, gravity: 'centre' }])
    .png()
    .toBuffer();
}

/** The mean colour of the pixels that are mostly opaque, or null for an all-transparent image. */
async function averageOpaqueColour(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image)
    .resize(64, 64, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i + 3] < 128) continue;
    r += data[i];
    g += data[i + 1];
    b += data[i + 2];
    n++;
  }
  return n === 0 ? null : rgbHex(r / n, g / n, b / n);
}

/** The top-left pixel's colour when it is opaque; white otherwise. */
async function cornerColour(image: Buffer): Promise<string> {
  const { data } = await sharp(image)
    .extract({ left: 0, top: 0, width: 1, height: 1 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data[3] > 250 ? rgbHex(data[0], data[1], data[2]) : WHITE;
}

function rgbHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function safeHex(colour: string, fallback: string): string {
  return HEX.test(colour) ? colour : fallback;
}

/** The first letter of the name, as a person reads it (one grapheme, so "Émile" gives É). */
export function nameInitial(name: string): string {
  const first = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    .segment(name.trim())
    [Symbol.iterator]()
    .next().value?.segment;
  return (first ?? '?').toLocaleUpperCase();
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** The generated icon, on a 100-unit canvas; colours are #rrggbb checked by the caller. */
export function initialSvg(name: string, fill: string, ink: string, purpose: IconPurpose): string {
  const letter = nameInitial(name).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
  // "any": a rounded tile with a large letter; maskable: full bleed, the letter inside the safe circle.
  const tile =
    purpose === 'any'
      ? `<rect width="100" height="100" rx="22" fill="${fill}"/>`
      : `<rect width="100" height="100" fill="${fill}"/>`;
  const fontSize = purpose === 'any' ? 60 : 46;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">' +
    tile +
    `<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="700" font-size="${fontSize}" fill="${ink}">${letter}</text>` +
    '</svg>'
  );
}
