/**
 * An admin looking at one client's data (SPEC §2 admin client view): the same queries as the
 * client's own dashboard, with the client id from the path instead of the session. The
 * recording itself is served by the calls module (GET /api/admin/client-recording/...).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminClientData, MESSAGES } from '../../../contract/admin';
import {
  AdminCallDetail,
  CallsPage,
  CallsQuery,
  ChartQuery,
  ClientStats,
  DailyPoints,
  StatsQuery,
} from '../../../contract/calls';
import { IdParam, SuccessBody } from '../../../contract/common';
import { recordAudit, recordClientRead } from '../../audit/audit-log';
import { requireAdmin } from '../../auth/guards';
import { listCalls } from './call-log';
import { chartFor, statsFor, toCallDetail } from './call-queries';
import { createCallsRepository } from '../write/calls-repository';
import type { ClientRow } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { toAdminListItem } from '../../clients/admin-client-view';
import { findClient, listClientsWithTotals } from '../../clients/clients-repository';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });
const ClientIdQuery = z.object({
  clientId: z.string({ required_error: 'clientId is required' }).trim().min(1).max(100),
});

export function adminRecordingPath(clientId: string, callId: string): string {
  return `/api/admin/client-recording/${encodeURIComponent(clientId)}/${encodeURIComponent(callId)}`;
}

export default async function adminCallsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, secrets, now } = app.deps;
  const calls = createCallsRepository(db);

  async function clientOr404(clientId: string): Promise<ClientRow> {
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client;
  }

  app.get(
    '/api/admin/client-data/:clientId',
    { schema: { params: ClientIdParam, response: { 200: AdminClientData } } },
    async (request): Promise<AdminClientData> => {
      const [found] = await listClientsWithTotals(db, request.params.clientId);
      if (!found) throw notFound(MESSAGES.clientNotFound);
      await recordClientRead(
        db,
        { adminId: requireAdmin(request).id, clientId: found.row.id, action: 'client.view' },
        now(),
      );
      return { client: toAdminListItem(found.row, found.totals, config.publicUrl, secrets) };
    },
  );

  app.get(
    '/api/admin/client-stats/:clientId',
    { schema: { params: ClientIdParam, querystring: StatsQuery, response: { 200: ClientStats } } },
    async (request) => {
      const client = await clientOr404(request.params.clientId);
      return statsFor(db, client.id, request.query, now());
    },
  );

  app.get(
    '/api/admin/client-calls-over-time/:clientId',
    { schema: { params: ClientIdParam, querystring: ChartQuery, response: { 200: DailyPoints } } },
    async (request) => {
      const client = await clientOr404(request.params.clientId);
      return chartFor(db, client, request.query, now());
    },
  );

  app.get(
    '/api/admin/client-calls/:clientId',
    { schema: { params: ClientIdParam, querystring: CallsQuery, response: { 200: CallsPage } } },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      const page = await listCalls(db, client.id, request.query);
      await recordClientRead(
        db,
        { adminId: admin.id, clientId: client.id, action: 'client.read_calls' },
        now(),
      );
      return {
        ...page,
        // The admin plays recordings through the admin path, which names the client.
        calls: page.calls.map((call) =>
          call.recordingUrl ? { ...call, recordingUrl: adminRecordingPath(client.id, call.id) } : call,
        ),
      };
    },
  );

  app.get(
    '/api/admin/client-calls/:clientId/:id',
    { schema: { params: ClientIdParam.merge(IdParam), response: { 200: AdminCallDetail } } },
    async (request) => {
      const admin = requireAdmin(request);
      const client = await clientOr404(request.params.clientId);
      const row = await calls.findCall(client.id, request.params.id);
      const call = toCallDetail(row, (id) => adminRecordingPath(client.id, id));
      if (!row || !call) throw notFound('Call not found');
      await recordClientRead(
        db,
        { adminId: admin.id, clientId: client.id, action: 'call.read', callId: row.id },
        now(),
      );
      const price = row.provider_price_micros;
      return { ...call, providerPrice: price === null ? null : Math.round(price / 10_000) / 100 };
    },
  );

  app.delete(
    '/api/admin/calls/:id',
    { schema: { params: IdParam, querystring: ClientIdQuery, response: { 200: SuccessBody } } },
    async (request) => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const client = await clientOr404(request.query.clientId);
      // A call of another client answers 404 like a missing one.
      if (!(await calls.deleteCall(client.id, id))) throw notFound('Call not found');
      await recordAudit(
        db,
        { adminId: admin.id, action: 'call.delete', clientId: client.id, detail: { callId: id } },
        now(),
      );
      return { success: true as const };
    },
  );
}
