/**
 * Brand images as the server stores them: every upload is decoded and re-encoded with
 * sharp, never kept as sent. The format is read from the bytes (sharp's metadata), never from the
 * file name or the declared type. An SVG is rasterised to PNG (librsvg renders it: it runs no
 * script and loads no external reference), so no SVG is ever stored or served and nothing in one
 * (script, event handlers, foreignObject, links) can reach a browser. Metadata is dropped.
 *
 * Owns the sizes: a logo is kept at 256 px high (sharp at ~40 px on a 3x screen and in the PDF),
 * at most 2048 px wide, any aspect ratio; the app icon is a 512 × 512 PNG.
 * Pure image work: no database, no HTTP beyond the 400s it throws.
 */
import sharp from 'sharp';
import type { BrandAssetVariant } from '../../contract/brand';
import { badRequest } from '../http/errors';

export const LOGO_HEIGHT = 256;
export const LOGO_MAX_WIDTH = 2048;
export const ICON_SIZE = 512;
/** An icon 2% off square (a 512 × 502 export) is still an icon; more is a logo in the wrong slot. */
const SQUARE_TOLERANCE = 0.02;
/**
 * Decompression bombs: a 1 MB PNG of one colour can claim 30 000 × 30 000 pixels. 40 megapixels
 * is more than any logo or icon needs (an 8000 × 5000 export).
 */
export const MAX_INPUT_PIXELS = 40_000_000;
/** A hostile or broken file must not hold a libvips thread for long. */
const TIMEOUT_SECONDS = 10;

export interface StoredImage {
  contentType: 'image/png' | 'image/webp';
  bytes: Buffer;
  width: number;
  height: number;
}

export const BRAND_IMAGE_MESSAGES = {
  notImage: 'The file is not a PNG, WebP or SVG image',
  notSquare: 'The app icon must be square',
  tooManyPixels: `The image has too many pixels (at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels)`,
} as const;

const refuse = (message: string) => badRequest(message, { file: message });

/** The upload re-encoded for `variant`; a 400 naming `file` for anything that is not a usable image. */
export async function normaliseBrandImage(variant: BrandAssetVariant, input: Buffer): Promise<StoredImage> {
  // Headers only: no pixels are decoded yet, so the pixel limit is checked below, per format.
  const meta = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw refuse(BRAND_IMAGE_MESSAGES.notImage);
    });
  const { format, width, height } = meta;
  if ((format !== 'png' && format !== 'webp' && format !== 'svg') || !width || !height) {
    throw refuse(BRAND_IMAGE_MESSAGES.notImage);
  }
  if (variant === 'icon' && Math.abs(width - height) > SQUARE_TOLERANCE * Math.max(width, height)) {
    throw refuse(BRAND_IMAGE_MESSAGES.notSquare);
  }
  // An SVG's declared size says nothing about its cost: it is drawn at the density that gives the
  // size we keep. A raster's pixels are what decoding costs.
  if (format !== 'svg' && width * height > MAX_INPUT_PIXELS) throw refuse(BRAND_IMAGE_MESSAGES.tooManyPixels);

  const scale =
    variant === 'icon'
      ? ICON_SIZE / Math.max(width, height)
      : Math.min(LOGO_HEIGHT / height, LOGO_MAX_WIDTH / width);
  const pipeline = sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: 'error',
    // librsvg draws an SVG at 72 dpi by default: this draws it at the target size directly.
    ...(format === 'svg' ? { density: clamp(72 * scale, 1, 100_000) } : {}),
  })
    .timeout({ seconds: TIMEOUT_SECONDS })
    // EXIF orientation applied before the metadata goes (sharp drops metadata unless asked to keep it).
    .rotate();

  const resized =
    variant === 'icon'
      ? // Up to 2% off square: cropped, not stretched.
        pipeline.resize(ICON_SIZE, ICON_SIZE, { fit: 'cover' })
      : pipeline.resize({
          width: LOGO_MAX_WIDTH,
          height: LOGO_HEIGHT,
          fit: 'inside',
          // A small raster stays its size (enlarging only blurs it); an SVG is drawn to size.
          withoutEnlargement: format !== 'svg',
        });
  const asWebp = variant !== 'icon' && format === 'webp';
  const encoded = asWebp
    ? resized.webp({ quality: 90, alphaQuality: 100, effort: 4 })
    : resized.png({ compressionLevel: 9 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true }).catch((error: Error) => {
    throw refuse(
      /pixel limit/i.test(error.message) ? BRAND_IMAGE_MESSAGES.tooManyPixels : BRAND_IMAGE_MESSAGES.notImage,
    );
  });
  return {
    contentType: asWebp ? 'image/webp' : 'image/png',
    bytes: data,
    width: info.width,
    height: info.height,
  };
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
