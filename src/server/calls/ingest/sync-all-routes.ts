/** POST /api/admin/sync-all-clients: the per-client sync for every active client (sync-all.ts). */
import type { FastifyInstance } from 'fastify';
import { SyncAllResult } from '../../../contract/admin';
import { recordAudit } from '../../activity/record';
import { requireAdmin } from '../../auth/guards';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { syncClientCalls } from './sync';
import { syncAllClients } from './sync-all';

export default async function syncAllRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/admin/sync-all-clients',
    {
      schema: {
        summary: 'Fetch the latest calls for every client',
        tags: ['admin'],
        response: { 200: SyncAllResult },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const result = await syncAllClients(app.deps, syncClientCalls, request.log, admin.id);
      await recordAudit(
        app.deps.db,
        {
          adminId: admin.id,
          action: 'clients.sync_all',
          detail: {
            synced: result.synced,
            failed: result.failed,
            skipped: result.skipped,
            created: result.created,
          },
        },
        app.deps.now(),
      );
      return result;
    },
  );
}
