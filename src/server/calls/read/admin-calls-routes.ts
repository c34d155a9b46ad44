/**
 * The header of an admin's view of one client (SPEC §2 admin client view): the client with its
 * totals, its read audited. The view's calls endpoints are the client's own, mounted for the
 * admin (calls-view-routes.ts with adminCallsView in views.ts). Opening the view is also a
 * `view_as_client` line of the client's own activity log (activity/record.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AdminClientData, MESSAGES } from '../../../contract/admin';
import { ClientIdParam } from '../../../contract/common';
import { recordClientRead, recordViewAsClient } from '../../activity/record';
import { requireAdmin } from '../../auth/guards';
import { toAdminListItem } from '../../clients/admin-client-view';
import { listClientsWithTotals } from '../../clients/clients-repository';
import { notFound } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/route-schemas';

export default async function adminCallsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, secrets, now } = app.deps;

  app.get(
    '/api/admin/client-data/:clientId',
    {
      schema: {
        summary: 'A client as its dashboard shows it',
        tags: ['admin'],
        params: ClientIdParam,
        response: { 200: AdminClientData },
      },
    },
    async (request): Promise<AdminClientData> => {
      const [found] = await listClientsWithTotals(db, request.params.clientId);
      if (!found) throw notFound(MESSAGES.clientNotFound);
      const admin = requireAdmin(request);
      await recordClientRead(db, { adminId: admin.id, clientId: found.row.id, action: 'client.view' }, now());
      // The client's own log says an agency admin looked, once per visit.
      await recordViewAsClient(db, admin, found.row.id, now());
      return { client: toAdminListItem(found.row, found.totals, config.publicUrl, secrets) };
    },
  );
}
