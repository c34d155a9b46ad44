/**
 * Call exports: each is a download streamed from the database, holding one of its
 * account's export slots until the download ends. One client's export (the client's own, the
 * admin's for one client) is a calls view's endpoint (calls-view-routes.ts); the admin's export
 * of every client is mounted here. The slots are the app's, shared by every export route.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { CallsExportQuery, type ExportFormat } from '../../../contract/calls';
import { recordAudit } from '../../activity/record';
import { requireAdmin } from '../../auth/guards';
import { clientLabel, clientLabels } from '../../clients/clients-repository';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { enforceCreationCap } from '../../http/creation-caps';
import { tooManyRequests } from '../../http/errors';
import { apiDoc } from '../../http/route-docs';
import type { ZodTypeProvider } from '../../http/route-schemas';
import { CALL_LOG_DOWNLOAD, EXPORT_TYPES, type ExportScope, exportCalls } from './call-export';
import { logWindow } from './call-log';

/** Exports one account may run at once on an instance: each holds a database reader for minutes. */
const EXPORTS_PER_ACCOUNT = 2;
const BUSY_MESSAGE = 'Two exports are already running for this account; try again when one has finished';

export type CallExports = ReturnType<typeof createCallExports>;

/** The app's export slots and what every export route shares: links, the admin's audit row, sending. */
export function createCallExports(deps: AppDeps) {
  const { db, config, now } = deps;
  const running = new Map<string, number>();
  const link = (path: string) => `${config.publicUrl.replace(/\/$/, '')}${path}`;

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
    await enforceCreationCap(deps, reply, {
      key: `export:${account}`,
      max: config.creationCaps.exportsPerHour,
      windowMs: 60 * 60 * 1000,
      what: 'exports',
    });
    running.set(account, held + 1);
    let holding = true;
    const release = () => {
      if (!holding) return;
      holding = false;
      const left = (running.get(account) ?? 1) - 1;
      if (left > 0) running.set(account, left);
      else running.delete(account);
    };
    const format: ExportFormat = query.format;
    const stream = exportCalls(db, scope, query, format);
    // The slot is the download's, not the generation's: it is held until the response has been
    // sent or broken off, so a slow download still counts against the account.
    reply.raw.once('close', release);
    stream.once('error', release);
    const filename = `${name}-${new Date(now()).toISOString().slice(0, 10)}.${format}`;
    return reply
      .header('content-type', EXPORT_TYPES[format])
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }

  return {
    link,
    send,
    /** Calls open in the admin's view of their client. */
    adminCallLink: (clientId: string, callId: string) =>
      link(`/admin/client/${encodeURIComponent(clientId)}?call=${encodeURIComponent(callId)}`),
    /** One client's export: its label, its zone for custom days, and where its calls open. */
    oneClient: (
      client: ClientRow,
      query: CallsExportQuery,
      callLink: ExportScope['callLink'],
    ): ExportScope => ({
      clientId: client.id,
      clients: new Map([[client.id, clientLabel(client)]]),
      window: logWindow(query, client.timezone, now()),
      callLink,
    }),
    /** Every export an admin downloads is recorded, with its format and filters (no folding: each is a copy). */
    auditExport: (
      adminId: string,
      action: 'client.export' | 'clients.export',
      query: CallsExportQuery,
      clientId?: string,
    ) => recordAudit(db, { adminId, action, clientId, detail: { ...query } }, now()),
  };
}

/** GET /api/admin/calls/export: every client's calls in one download. */
export function allClientsExportRoutes(exports: CallExports): FastifyPluginAsync {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { db, now } = app.deps;
    app.get(
      '/api/admin/calls/export',
      {
        schema: {
          summary: 'Download every client’s call log',
          tags: ['admin'],
          ...apiDoc({ errors: [429], responses: CALL_LOG_DOWNLOAD }),
          querystring: CallsExportQuery,
        },
      },
      async (request, reply) => {
        const admin = requireAdmin(request);
        const scope: ExportScope = {
          clientId: null,
          clients: await clientLabels(db),
          // Clients live in different zones: the all-clients export reads a custom range as UTC days,
          // while each row still shows its client's local time and zone.
          window: logWindow(request.query, 'UTC', now()),
          callLink: exports.adminCallLink,
        };
        await exports.auditExport(admin.id, 'clients.export', request.query);
        return exports.send(reply, `admin:${admin.id}`, scope, request.query, 'calls-all-clients');
      },
    );
  };
}
