/** POST /api/admin/sync-all-clients: the per-client sync for every active client (sync-all.ts). */
import type { FastifyInstance } from 'fastify';
import type { SyncAllResult } from '../../contract/admin';
import { recordAudit } from '../audit/audit-log';
import { requireAdmin } from '../auth/guards';
import { syncClientCalls } from '../calls/sync';
import { syncAllClients } from './sync-all';

export default async function syncAllRoutes(app: FastifyInstance): Promise<void> {
  app.post('/api/admin/sync-all-clients', async (request): Promise<SyncAllResult> => {
    const admin = await requireAdmin(app, request);
    const result = await syncAllClients(app.deps, syncClientCalls, request.log);
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
  });
}
