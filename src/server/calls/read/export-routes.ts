/**
 * Call exports (issue 15): the client's own filtered log, the admin's for one client, and the
 * admin's for every client. Each is a download streamed from the database.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { CallsExportQuery, type ExportFormat } from '../../../contract/calls';
import { recordAudit } from '../../audit/audit-log';
import { requireAdmin, requireClient } from '../../auth/guards';
import { clientLabel, clientLabels, findClient } from '../../clients/clients-repository';
import type { ClientRow } from '../../db/schema';
import { enforceCreationCap } from '../../http/creation-caps';
import { notFound, tooManyRequests } from '../../http/errors';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { logWindow } from './call-log';
import { EXPORT_TYPES, type ExportScope, exportCalls } from './call-export';

/** Exports one account may run at once on an instance: each holds a database reader for minutes. */
const EXPORTS_PER_ACCOUNT = 2;
const BUSY_MESSAGE = 'Two exports are already running for this account; try again when one has finished';

const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

export default async function exportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, now } = app.deps;
  const running = new Map<string, number>();
  const link = (path: string) => `${config.publicUrl.replace(/\/$/, '')}${path}`;
  /** Calls open in the admin's view of their client. */
  const adminCallLink = (clientId: string, callId: string) =>
    link(`/admin/client/${encodeURIComponent(clientId)}?call=${encodeURIComponent(callId)}`);
  /** One client's export: its label, its zone for custom days, and where its calls open. */
  const oneClient = (
    client: ClientRow,
    query: CallsExportQuery,
    callLink: ExportScope['callLink'],
  ): ExportScope => ({
    clientId: client.id,
    clients: new Map([[client.id, clientLabel(client)]]),
    window: logWindow(query, client.timezone),
    callLink,
  });

  /** Every export an admin downloads is recorded, with its format and filters (no folding: each is a copy). */
  const auditExport = (
    adminId: string,
    action: 'client.export' | 'clients.export',
    query: CallsExportQuery,
    clientId?: string,
  ) => recordAudit(db, { adminId, action, clientId, detail: { ...query } }, now());

  /** Sends the export, holding one of the account's export slots until the download ends. */
  async function send(
    reply: FastifyReply,
    account: string,
    scope: ExportScope,
    query: CallsExportQuery,
    name: string,
  ): Promise<FastifyReply> {
    const held = running.get(account) ?? 0;
    if (held >= EXPORTS_PER_ACCOUNT) throw tooManyRequests(BUSY_MESSAGE);
    // Each download is counted too, across instances: two at a time, and so many an hour.
    await enforceCreationCap(app.deps, reply, {
      key: `export:${account}`,
      max: config.creationCaps.exportsPerHour,
      windowMs: 60 * 60 * 1000,
      what: 'exports',
    });
    running.set(account, held + 1);
    const release = () => {
      const left = (running.get(account) ?? 1) - 1;
      if (left > 0) running.set(account, left);
      else running.delete(account);
    };
    const format: ExportFormat = query.format;
    const stream = exportCalls(db, scope, query, format);
    // The slot is the download's, not the generation's: it is held until the response has been
    // sent or broken off, so a slow download still counts against the account.
    let released = false;
    const releaseOnce = () => {
      if (released) return;
      released = true;
      release();
    };
    reply.raw.once('close', releaseOnce);
    stream.once('error', releaseOnce);
    const filename = `${name}-${new Date(now()).toISOString().slice(0, 10)}.${format}`;
    return reply
      .header('content-type', EXPORT_TYPES[format])
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }

  app.get(
    '/api/client/calls/export',
    { schema: { querystring: CallsExportQuery } },
    async (request, reply) => {
      const client = requireClient(request);
      const scope = oneClient(client, request.query, (_, callId) =>
        link(`/dashboard?call=${encodeURIComponent(callId)}`),
      );
      return send(reply, `client:${client.id}`, scope, request.query, 'calls');
    },
  );

  app.get(
    '/api/admin/clients/:clientId/calls/export',
    { schema: { params: ClientIdParam, querystring: CallsExportQuery } },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const client = await findClient(db, request.params.clientId);
      if (!client) throw notFound('Client not found');
      const scope = oneClient(client, request.query, adminCallLink);
      await auditExport(admin.id, 'client.export', request.query, client.id);
      return send(reply, `admin:${admin.id}`, scope, request.query, `calls-${client.id}`.slice(0, 80));
    },
  );

  app.get(
    '/api/admin/calls/export',
    { schema: { querystring: CallsExportQuery } },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const scope: ExportScope = {
        clientId: null,
        clients: await clientLabels(db),
        // Clients live in different zones: the all-clients export reads a custom range as UTC days,
        // while each row still shows its client's local time and zone.
        window: logWindow(request.query, 'UTC'),
        callLink: adminCallLink,
      };
      await auditExport(admin.id, 'clients.export', request.query);
      return send(reply, `admin:${admin.id}`, scope, request.query, 'calls-all-clients');
    },
  );
}
