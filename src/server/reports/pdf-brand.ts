/**
 * The agency's brand as the monthly PDF draws it: name, colours, footer text and the
 * light logo as PNG. PDFKit embeds only PNG and JPEG, and the logo is stored as PNG, WebP or SVG,
 * so it is converted with sharp (an SVG rasterised) at four times the size it is drawn, once per
 * stored image (keyed by its sha256, so a new upload is picked up at once).
 *
 * Reads the image bytes from `brand_assets` itself, read-only: brand-store.ts keeps the addresses,
 * not the bytes, and a report is the only server-side renderer that needs the pixels.
 */
import sharp from 'sharp';
import { AA_UI, contrastRatio } from '../../contract/brand-contrast';
import { loadBrand } from '../brand/brand-store';
import type { AppDeps } from '../context';
import type { PdfBrand } from './pdf-header';

/** Drawn 28 pt high; rendered at 4x so it stays sharp when printed. */
const LOGO_RENDER_HEIGHT = 112;

const converted = new Map<string, Promise<PdfBrand['logo']>>();

async function toPng(bytes: Buffer): Promise<PdfBrand['logo']> {
  const { data, info } = await sharp(bytes, { density: 300 })
    .resize({ height: LOGO_RENDER_HEIGHT, withoutEnlargement: false })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

export async function loadPdfBrand(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'brandCache'>,
): Promise<PdfBrand> {
  const brand = await loadBrand(deps);
  const { primary, primaryText } = brand.palette;
  const base = {
    name: brand.settings.name,
    // Bars and the meter are read on white paper: a light primary (yellow) that does not reach
    // 3:1 there (WCAG 1.4.11) is drawn in its text shade, which does.
    primary: contrastRatio(primary, '#ffffff') >= AA_UI ? primary : primaryText,
    primaryText: brand.palette.primaryText,
    footerText: brand.settings.footerText,
  };
  if (!brand.assets.logoUrl) return { ...base, logo: null };
  const row = await deps.db
    .selectFrom('brand_assets')
    .select(['bytes', 'sha256'])
    .where('variant', '=', 'light')
    .executeTakeFirst();
  if (!row) return { ...base, logo: null };
  let logo = converted.get(row.sha256);
  if (!logo) {
    logo = toPng(Buffer.from(row.bytes));
    // A handful of uploads per installation: keep the last few.
    const oldest = converted.keys().next();
    if (converted.size >= 4 && !oldest.done) converted.delete(oldest.value);
    converted.set(row.sha256, logo);
    logo.catch(() => converted.delete(row.sha256));
  }
  // An image sharp cannot read leaves the report without a logo rather than without a report.
  return { ...base, logo: await logo.catch(() => null) };
}
