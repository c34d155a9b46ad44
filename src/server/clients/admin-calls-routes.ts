/**
 * An admin looking at one client's data (SPEC §2 admin client view): the same queries as the
 * client's own dashboard, with the client id from the path instead of the session. The
 * recording itself is served by the calls module (GET /api/admin/client-recording/...).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type AdminClientData, MESSAGES } from '../../contract/admin';
import { CallsQuery, type CallsPage, type ClientStats, type DailyPoint } from '../../contract/calls';
import { DateRangeQuery, IdParam } from '../../contract/common';
import { recordAudit } from '../audit/audit-log';
import { requireAdmin } from '../auth/guards';
import { getCallsOverTime, getClientStats, listCalls } from '../calls/call-queries';
import { createCallsRepository } from '../calls/calls-repository';
import type { ClientRow } from '../db/schema';
import { notFound, parseInput } from '../errors';
import { toAdminListItem } from './admin-client-view';
import { findClient, listClientsWithTotals } from './clients-repository';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });
const ClientIdQuery = z.object({
  clientId: z.string({ required_error: 'clientId is required' }).trim().min(1).max(100),
});

export function adminRecordingPath(clientId: string, callId: string): string {
  return `/api/admin/client-recording/${encodeURIComponent(clientId)}/${encodeURIComponent(callId)}`;
}

export default async function adminCallsRoutes(app: FastifyInstance): Promise<void> {
  const { db, config, secrets, now } = app.deps;
  const calls = createCallsRepository(db);

  async function clientFromParams(params: unknown): Promise<ClientRow> {
    const { clientId } = parseInput(ClientIdParam, params, 'client id');
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    return client;
  }

  app.get('/api/admin/client-data/:clientId', async (request): Promise<AdminClientData> => {
    await requireAdmin(app, request);
    const { clientId } = parseInput(ClientIdParam, request.params, 'client id');
    const [found] = await listClientsWithTotals(db, clientId);
    if (!found) throw notFound(MESSAGES.clientNotFound);
    return { client: toAdminListItem(found.row, found.totals, config.publicUrl, secrets) };
  });

  app.get('/api/admin/client-stats/:clientId', async (request): Promise<ClientStats> => {
    await requireAdmin(app, request);
    const client = await clientFromParams(request.params);
    const { dateRange } = parseInput(DateRangeQuery, request.query);
    return getClientStats(db, client.id, dateRange, now());
  });

  app.get('/api/admin/client-calls-over-time/:clientId', async (request): Promise<DailyPoint[]> => {
    await requireAdmin(app, request);
    const client = await clientFromParams(request.params);
    const { dateRange } = parseInput(DateRangeQuery, request.query);
    return getCallsOverTime(db, { id: client.id, timezone: client.timezone }, dateRange, now());
  });

  app.get('/api/admin/client-calls/:clientId', async (request): Promise<CallsPage> => {
    await requireAdmin(app, request);
    const client = await clientFromParams(request.params);
    const query = parseInput(CallsQuery, request.query, 'query');
    const page = await listCalls(db, client.id, query);
    return {
      ...page,
      // The admin plays recordings through the admin path, which names the client.
      calls: page.calls.map((call) =>
        call.recordingUrl ? { ...call, recordingUrl: adminRecordingPath(client.id, call.id) } : call,
      ),
    };
  });

  app.delete('/api/admin/calls/:id', async (request) => {
    const admin = await requireAdmin(app, request);
    const { id } = parseInput(IdParam, request.params, 'call id');
    const { clientId } = parseInput(ClientIdQuery, request.query, 'query');
    const client = await findClient(db, clientId);
    if (!client) throw notFound(MESSAGES.clientNotFound);
    // A call of another client answers 404 like a missing one.
    if (!(await calls.deleteCall(client.id, id))) throw notFound('Call not found');
    await recordAudit(
      db,
      { adminId: admin.id, action: 'call.delete', clientId: client.id, detail: { callId: id } },
      now(),
    );
    return { success: true };
  });
}
