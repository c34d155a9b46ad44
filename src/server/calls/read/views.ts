/**
 * The client's and the admin's calls views (calls-view-routes.ts mounts each): how each finds its
 * client, links a call's recording, and what the admin's reads leave in the audit log. The demo's
 * view is the demo's own (demo/routes.ts).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminCallDetail, type CallsExportQuery } from '../../../contract/calls';
import { ClientIdParam } from '../../../contract/common';
import { masksNumbersFor } from '../../access/number-masking';
import { limitNumberSearch } from '../../access/number-searches';
import { recordActivity, recordAudit, recordClientRead } from '../../activity/record';
import { requireAdmin, requireClient, requireClientUser } from '../../auth/guards';
import { namedClient } from '../../clients/named-client';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import type { CallsView } from './calls-view-routes';
import type { CallExports } from './export-routes';

/** An export's filters as its activity line keeps them: what was sent, without the format. */
function exportFilters(query: CallsExportQuery): Record<string, unknown> {
  const { format: _, ...filters } = query;
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== null),
  );
}

/** DELETE /api/admin/calls/{id} names the client in its query. */
const ClientIdQuery = z.object({
  clientId: z.string({ required_error: 'clientId is required' }).trim().min(1).max(100),
});

export function adminRecordingPath(clientId: string, callId: string): string {
  return `/api/admin/client-recording/${encodeURIComponent(clientId)}/${encodeURIComponent(callId)}`;
}

/**
 * The signed-in client's own calls: the client the guard loaded from the session. Its users may see
 * callers' numbers masked (access/number-masking.ts), and each export is a line of the client's
 * activity log.
 */
export function clientCallsView(deps: AppDeps, exports: CallExports): CallsView<ClientRow> {
  return {
    paths: {
      log: '/api/client/calls',
      stats: '/api/client/stats',
      overTime: '/api/client/calls-over-time',
      call: '/api/client/calls/:id',
      outcomesSummary: '/api/client/outcomes/summary',
      qualitySummary: '/api/client/quality/summary',
      outcomesOverTime: '/api/client/outcomes-over-time',
      attention: '/api/client/attention',
      handled: '/api/client/calls/:id/handled',
      delete: '/api/client/calls/:id',
      export: '/api/client/calls/export',
    },
    docs: {
      tag: 'client',
      log: {
        summary: 'The call log, filtered and paged',
        // A search by phone number of someone who sees numbers masked is capped (access/number-searches.ts).
        errors: [429],
        description:
          'Newest first unless `sort` says otherwise, with a `search` too; `sort=relevance` ranks the newest 1,000 matches of a word search best match first. A searched or quality-filtered log counts up to 1,000: past that `pagination.total` is 1,000 with `totalIsLowerBound: true`. Each full page names the next in `pagination.nextAfter`: pass it back as `after` (with the same filters and sort, `page` then only numbers the page). A search is read past its first 1,000 calls only this way (keyset); a `page` beyond them without `after` answers 400. For someone who sees numbers masked, searches by phone number are capped per hour (429 with `Retry-After`).',
      },
      stats: { summary: 'Call statistics for a period' },
      overTime: { summary: 'Calls per day or hour for the chart' },
      call: { summary: 'One call with its transcript' },
      outcomesSummary: { summary: 'Calls per outcome for a period' },
      qualitySummary: { summary: 'How well the agent spoke: a period against the one before' },
      outcomesOverTime: { summary: 'Outcomes per day for the chart' },
      attention: { summary: 'Calls that still need a person' },
      handled: { summary: 'Mark a call as handled' },
      delete: { summary: 'Delete a call' },
      export: { summary: 'Download the filtered call log' },
    },
    clientOf: async (request) => requireClient(request),
    numbersMasked: (request, client) => masksNumbersFor(client, requireClientUser(request)),
    searched: (request, reply, client, search) =>
      limitNumberSearch(deps, reply, client, requireClientUser(request), search),
    exported: (request, client, query, rows, complete) =>
      recordActivity(
        deps.db,
        {
          clientId: client.id,
          userId: requireClientUser(request).id,
          action: 'export',
          detail: { format: query.format, rows, complete, filters: exportFilters(query) },
        },
        deps.now(),
      ),
    handledBy: (_, client) => client.email,
    export: {
      exports,
      scope: (client, query) =>
        exports.oneClient(client, query, (_, callId) =>
          exports.link(`/dashboard?call=${encodeURIComponent(callId)}`),
        ),
      account: (_, client) => `client:${client.id}`,
      filename: () => 'calls',
    },
  };
}

/**
 * An admin looking at one client's calls (SPEC §2 admin client view): the client id from the
 * path (the DELETE's query) instead of the session. Reads of the log and of a call, deletes and
 * exports are audited as before this view existed.
 */
export function adminCallsView(deps: AppDeps, exports: CallExports): CallsView<ClientRow> {
  const { db, now } = deps;
  const clientIdOf = (request: FastifyRequest): string => {
    const inPath = ClientIdParam.safeParse(request.params);
    return inPath.success ? inPath.data.clientId : ClientIdQuery.parse(request.query).clientId;
  };
  return {
    paths: {
      log: '/api/admin/client-calls/:clientId',
      stats: '/api/admin/client-stats/:clientId',
      overTime: '/api/admin/client-calls-over-time/:clientId',
      call: '/api/admin/client-calls/:clientId/:id',
      outcomesSummary: '/api/admin/client-outcomes/:clientId/summary',
      qualitySummary: '/api/admin/client-quality/:clientId/summary',
      outcomesOverTime: '/api/admin/client-outcomes/:clientId/over-time',
      attention: '/api/admin/client-attention/:clientId',
      handled: '/api/admin/client-calls/:clientId/:id/handled',
      delete: '/api/admin/calls/:id',
      export: '/api/admin/clients/:clientId/calls/export',
    },
    docs: {
      tag: 'admin',
      log: { summary: 'A client’s call log' },
      stats: { summary: 'A client’s call statistics' },
      overTime: { summary: 'A client’s calls per day or hour' },
      call: { summary: 'One of a client’s calls' },
      outcomesSummary: { summary: 'A client’s calls per outcome' },
      qualitySummary: { summary: 'A client’s conversation quality' },
      outcomesOverTime: { summary: 'A client’s outcomes per day' },
      attention: { summary: 'A client’s calls that need a person' },
      handled: { summary: 'Mark a client’s call as handled' },
      delete: { summary: 'Delete any client’s call' },
      export: { summary: 'Download a client’s call log' },
    },
    params: ClientIdParam,
    deleteQuery: ClientIdQuery,
    async clientOf(request) {
      requireAdmin(request);
      return namedClient(db, clientIdOf(request));
    },
    // The admin plays recordings through the admin path, which names the client; the attention
    // list keeps the download path (/api/recording/{id}), which serves admins too.
    showCall: (call, client, place) =>
      place === 'attention' || !call.recordingUrl
        ? call
        : { ...call, recordingUrl: adminRecordingPath(client.id, call.id) },
    detail: {
      response: AdminCallDetail,
      show: (call, row) => {
        const price = row.provider_price_micros;
        return { ...call, providerPrice: price === null ? null : Math.round(price / 10_000) / 100 };
      },
    },
    handledBy: (request) => `${requireAdmin(request).name} (admin)`,
    async record(request, client, event) {
      const adminId = requireAdmin(request).id;
      const clientId = client.id;
      switch (event.kind) {
        case 'log':
          return recordClientRead(db, { adminId, clientId, action: 'client.read_calls' }, now());
        case 'call':
          return recordClientRead(
            db,
            { adminId, clientId, action: 'call.read', callId: event.callId },
            now(),
          );
        case 'delete':
          return recordAudit(
            db,
            { adminId, action: 'call.delete', clientId, detail: { callId: event.callId } },
            now(),
          );
        case 'export':
          return exports.auditExport(adminId, 'client.export', event.query, clientId);
      }
    },
    export: {
      exports,
      scope: (client, query) => exports.oneClient(client, query, exports.adminCallLink),
      account: (request) => `admin:${requireAdmin(request).id}`,
      filename: (client) => `calls-${client.id}`.slice(0, 80),
    },
  };
}
