/**
 * The brand's images and what is drawn from them:
 * - POST /api/admin/brand/logo?variant=light|dark|icon: one multipart file (PNG, WebP or SVG, at
 *   most BRAND_ASSET_MAX_BYTES), re-encoded by assets-images.ts, stored (one per variant), audited;
 *   answers its address. DELETE removes it and answers the public brand without it.
 * - GET /brand-assets/<variant>-<sha16>.<ext>: the stored bytes, public, with their own content
 *   type, nosniff and a CSP that forbids everything (a logo opened on its own runs nothing);
 *   cached for a year, since the address changes with the bytes. A stale hash is a 404.
 * - GET /manifest.webmanifest, /brand-icons/<file>, /favicon.ico: the installable app's manifest
 *   and its icons (icons.ts), versioned by assets-version.ts.
 * The admin routes are guarded by their /api/admin/ prefix (auth/guards.ts). Multipart is parsed
 * in this plugin only: every other route still takes JSON alone.
 */
import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  BRAND_ASSET_MAX_BYTES,
  BrandAssetQuery,
  BrandAssetUploaded,
  type BrandAssetVariant,
  PublicBrand,
} from '../../contract/brand';
import { recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import { badRequest, HttpError, notFound } from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { normaliseBrandImage } from './assets-images';
import { readBrandAsset, removeBrandAsset, saveBrandAsset } from './assets-store';
import { BRAND_ICON_FILES, brandIconPath, brandIconVersion } from './assets-version';
import { brandAssetPath, forgetBrand, type LoadedBrand, loadBrand } from './brand-store';
import { brandIcon, type IconPurpose, type IconSize, type IconSources } from './icons';

export const BRAND_UPLOAD_MESSAGES = {
  tooLarge: `The image is larger than ${BRAND_ASSET_MAX_BYTES / (1024 * 1024)} MB`,
  oneFile: 'Send exactly one file',
  noFile: 'Attach the image as a file',
  notMultipart: 'Send the image as multipart/form-data',
  malformed: 'The upload is not a valid multipart form',
} as const;

const YEAR = 'public, max-age=31536000, immutable';
/** Nothing may run or load in a stored image opened on its own. */
const ASSET_CSP = "default-src 'none'; sandbox";
/**
 * helmet's default is same-origin; these are public images by design, shown by e-mail clients
 * and the PDF renderer from other origins (a webmail page loading the logo would be refused).
 */
const CROSS_ORIGIN = 'cross-origin';
const ASSET_FILE = /^(light|dark|icon)-([0-9a-f]{16})\.(png|webp|svg)$/;

const ICON_FILES: Record<string, { size: IconSize; purpose: IconPurpose }> = {
  [BRAND_ICON_FILES.favicon]: { size: 32, purpose: 'any' },
  [BRAND_ICON_FILES.any192]: { size: 192, purpose: 'any' },
  [BRAND_ICON_FILES.any512]: { size: 512, purpose: 'any' },
  [BRAND_ICON_FILES.maskable192]: { size: 192, purpose: 'maskable' },
  [BRAND_ICON_FILES.maskable512]: { size: 512, purpose: 'maskable' },
};

const AssetParams = z.object({ file: z.string().max(64) });
const IconParams = z.object({ file: z.string().max(64) });
const IconQuery = z.object({ v: z.string().max(64).optional() });

/** Home-screen names are cut at about 12 characters; whole words are kept while they fit. */
export function shortName(name: string): string {
  const trimmed = name.trim();
  if ([...trimmed].length <= 12) return trimmed;
  let short = '';
  for (const word of trimmed.split(/\s+/)) {
    const next = short ? `${short} ${word}` : word;
    if ([...next].length > 12) break;
    short = next;
  }
  return short || [...trimmed].slice(0, 12).join('').trim();
}

export function webAppManifest(brand: PublicBrand) {
  const version = brandIconVersion(brand);
  const icon = (file: string, size: number, purpose: IconPurpose) => ({
    src: brandIconPath(file, version),
    sizes: `${size}x${size}`,
    type: 'image/png',
    purpose,
  });
  return {
    // A fixed id: the installed app stays the same app when the brand's name or start page changes.
    id: '/',
    name: brand.name,
    short_name: shortName(brand.name),
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: brand.palette.primary,
    background_color: '#ffffff',
    icons: [
      icon(BRAND_ICON_FILES.any192, 192, 'any'),
      icon(BRAND_ICON_FILES.any512, 512, 'any'),
      icon(BRAND_ICON_FILES.maskable192, 192, 'maskable'),
      icon(BRAND_ICON_FILES.maskable512, 512, 'maskable'),
    ],
  };
}

export default async function brandAssetRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  // Limits: one file of at most 1 MB; a few stray parts are read only to refuse them.
  await app.register(multipart, {
    limits: { fileSize: BRAND_ASSET_MAX_BYTES, files: 2, fields: 4, parts: 6, headerPairs: 50 },
  });

  app.post(
    '/api/admin/brand/logo',
    {
      schema: {
        summary:
          'Upload the light or dark logo or the app icon (PNG, WebP or SVG, at most 1 MB); answers its address',
        tags: ['admin'],
        description:
          'One file, multipart. The format is read from the bytes; every image is re-encoded (an SVG is ' +
          'drawn to PNG, so none of its scripts, handlers or links survive). A logo is kept 256 px high, ' +
          'at most 2048 px wide; the icon must be square and is kept at 512 × 512. 413 over 1 MB.',
        ...apiDoc({
          rawBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: { file: { type: 'string', format: 'binary', description: 'The image' } },
                },
              },
            },
          },
        }),
        querystring: BrandAssetQuery,
        response: { 200: BrandAssetUploaded },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { variant } = request.query;
      const upload = await readOneFile(request);
      const image = await normaliseBrandImage(variant, upload);
      const sha256 = createHash('sha256').update(image.bytes).digest('hex');
      const at = deps.now();
      await deps.db.transaction().execute(async (trx) => {
        await saveBrandAsset(trx, variant, { ...image, sha256 }, at);
        await recordAudit(
          trx,
          {
            adminId: admin.id,
            action: 'brand.asset',
            detail: { variant, action: 'upload', width: image.width, height: image.height },
          },
          at,
        );
      });
      forgetBrand(deps);
      return { url: brandAssetPath(variant, sha256, image.contentType) };
    },
  );

  app.delete(
    '/api/admin/brand/logo',
    {
      schema: {
        summary: 'Remove the light or dark logo or the app icon; answers the public brand without it',
        tags: ['admin'],
        querystring: BrandAssetQuery,
        response: { 200: PublicBrand },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { variant } = request.query;
      const at = deps.now();
      await deps.db.transaction().execute(async (trx) => {
        // Removing what is not there changes nothing and is not worth an audit line.
        const removed = await removeBrandAsset(trx, variant);
        if (!removed) return;
        await recordAudit(
          trx,
          { adminId: admin.id, action: 'brand.asset', detail: { variant, action: 'remove', ...removed } },
          at,
        );
      });
      forgetBrand(deps);
      return (await loadBrand(deps)).publicBrand;
    },
  );

  // Outside /api: not in the API description (hide), public, answered as files.
  app.get('/brand-assets/:file', { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const match = ASSET_FILE.exec(request.params.file);
    if (!match) throw notFound('No such image');
    // ASSET_FILE's first group matches only the variants' names.
    const variant = match[1] as BrandAssetVariant;
    const asset = await readBrandAsset(deps.db, variant);
    // Only the current bytes, at their own address: an old or made-up hash is not found.
    if (!asset || brandAssetPath(variant, asset.sha256, asset.contentType) !== `/brand-assets/${match[0]}`) {
      throw notFound('No such image');
    }
    return reply
      .type(asset.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', ASSET_CSP)
      .header('cache-control', YEAR)
      .header('cross-origin-resource-policy', CROSS_ORIGIN)
      .send(asset.bytes);
  });

  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    const brand = await loadBrand(deps);
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(webAppManifest(brand.publicBrand)));
  });

  app.get(
    '/brand-icons/:file',
    { schema: { hide: true, params: IconParams, querystring: IconQuery } },
    async (request, reply) => {
      const icon = Object.hasOwn(ICON_FILES, request.params.file) ? ICON_FILES[request.params.file] : null;
      if (!icon) throw notFound('No such icon');
      const { size, purpose } = icon;
      const brand = await loadBrand(deps);
      const version = brandIconVersion(brand.publicBrand);
      // The versioned address never changes content; any other (an old ?v=, none) revalidates.
      return sendIcon(reply, brand, size, purpose, request.query.v === version ? YEAR : 'no-cache');
    },
  );

  // Browsers ask for /favicon.ico on their own (bookmarks, pages without the link): the 32 px PNG.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => {
    const brand = await loadBrand(deps);
    return sendIcon(reply, brand, 32, 'any', 'public, max-age=300');
  });

  async function sendIcon(
    reply: FastifyReply,
    brand: LoadedBrand,
    size: IconSize,
    purpose: IconPurpose,
    cacheControl: string,
  ) {
    const version = brandIconVersion(brand.publicBrand);
    const sources = async (): Promise<IconSources> => {
      const [icon, logo] = await Promise.all([
        brand.assets.iconUrl ? readBrandAsset(deps.db, 'icon') : undefined,
        brand.assets.logoUrl ? readBrandAsset(deps.db, 'light') : undefined,
      ]);
      return { icon, logo };
    };
    const png = await brandIcon(brand.publicBrand, version, size, purpose, sources);
    return reply
      .type('image/png')
      .header('cache-control', cacheControl)
      .header('cross-origin-resource-policy', CROSS_ORIGIN)
      .send(png);
  }
}

/** The one file of a multipart upload, read whole (at most BRAND_ASSET_MAX_BYTES). */
async function readOneFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new HttpError(415, BRAND_UPLOAD_MESSAGES.notMultipart);
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || file) throw uploadRefused(BRAND_UPLOAD_MESSAGES.oneFile);
      file = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // Fastify's multipart errors carry a code; other errors read it as undefined.
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, BRAND_UPLOAD_MESSAGES.tooLarge, { file: BRAND_UPLOAD_MESSAGES.tooLarge });
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw uploadRefused(BRAND_UPLOAD_MESSAGES.oneFile);
    }
    throw uploadRefused(BRAND_UPLOAD_MESSAGES.malformed);
  }
  if (!file || file.length === 0) throw uploadRefused(BRAND_UPLOAD_MESSAGES.noFile);
  return file;
}

const uploadRefused = (message: string) => badRequest(message, { file: message });
