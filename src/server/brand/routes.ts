/**
 * The brand's settings: GET /api/brand for every page (public, no secrets, cached by
 * browsers for a minute) and GET/PUT /api/admin/brand for the agency's admins. A PUT is a patch:
 * the fields sent replace the saved ones, the answer is the whole brand with what the contrast
 * guard changed. Every save writes an audit line naming the fields changed. DELETE forgets the
 * saved settings, so the installation is the product again (its own landing page among them).
 * The app registers the brand as this one plugin, with its images (assets-routes.ts) and the mail
 * domain's DNS check (mail-dns-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AdminBrand, BrandSettings, BrandUpdate, PublicBrand } from '../../contract/brand';
import { recordAudit } from '../activity/record';
import { requireAdmin } from '../auth/guards';
import type { ZodTypeProvider } from '../http/route-schemas';
import brandAssetRoutes from './assets-routes';
import {
  deleteBrandSettings,
  forgetBrand,
  type LoadedBrand,
  loadBrand,
  saveBrandSettings,
} from './brand-store';
import mailDnsRoutes from './mail-dns-routes';

function toAdminBrand(brand: LoadedBrand): AdminBrand {
  const { adjusted, ...palette } = brand.palette;
  return {
    ...brand.settings,
    ...brand.assets,
    saved: brand.saved,
    updatedAt: brand.updatedAt === null ? null : new Date(brand.updatedAt).toISOString(),
    palette,
    contrast: { adjusted },
  };
}

export default async function brandRoutes(app: FastifyInstance): Promise<void> {
  await app.register(brandSettingsRoutes);
  await app.register(brandAssetRoutes);
  await app.register(mailDnsRoutes);
}

async function brandSettingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  app.get(
    '/api/brand',
    {
      schema: {
        summary: 'The agency’s name, images, colours and support details (public, no secrets)',
        tags: ['public'],
        response: { 200: PublicBrand },
      },
    },
    async (_request, reply) => {
      // Short, and revalidated: a saved brand reaches open tabs within a minute.
      reply.header('cache-control', 'public, max-age=60, must-revalidate');
      return (await loadBrand(deps)).publicBrand;
    },
  );

  app.get(
    '/api/admin/brand',
    {
      schema: {
        summary: 'The saved brand, with what the contrast guard changed',
        tags: ['admin'],
        response: { 200: AdminBrand },
      },
    },
    async () => toAdminBrand(await loadBrand(deps)),
  );

  app.put(
    '/api/admin/brand',
    {
      schema: {
        summary: 'Change the brand (a patch); answers it with the contrast report',
        tags: ['admin'],
        body: BrandUpdate,
        response: { 200: AdminBrand },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const current = await loadBrand(deps);
      const next = BrandSettings.parse({ ...current.settings, ...request.body });
      const changed = Object.keys(request.body).filter(
        (key) =>
          // Object.keys answers string[]; BrandUpdate's keys are BrandSettings' own.
          JSON.stringify(next[key as keyof BrandSettings]) !==
          JSON.stringify(current.settings[key as keyof BrandSettings]),
      );
      const at = deps.now();
      await deps.db.transaction().execute(async (trx) => {
        await saveBrandSettings(trx, next, admin.id, at);
        await recordAudit(
          trx,
          { adminId: admin.id, action: 'brand.update', detail: { fields: changed } },
          at,
        );
      });
      forgetBrand(deps);
      return toAdminBrand(await loadBrand(deps));
    },
  );

  app.delete(
    '/api/admin/brand',
    {
      schema: {
        summary: 'Forget the saved settings: the product’s own name, colours and landing page return',
        tags: ['admin'],
        description:
          'The images stay (DELETE /api/admin/brand/logo removes them). Answers the brand as it now is.',
        response: { 200: AdminBrand },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const at = deps.now();
      await deps.db.transaction().execute(async (trx) => {
        await deleteBrandSettings(trx);
        await recordAudit(trx, { adminId: admin.id, action: 'brand.update', detail: { reset: true } }, at);
      });
      forgetBrand(deps);
      return toAdminBrand(await loadBrand(deps));
    },
  );
}
