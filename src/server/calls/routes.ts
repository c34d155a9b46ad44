/**
 * Everything about calls: provider deliveries and sync (ingest/); the calls views of the client
 * and of the admin looking at a client (read/calls-view-routes.ts, written once, mounted for
 * each), the admin's every-client export and recordings (read/); the agency's Support Tools over
 * ingest's deliveries and sync runs (ingest/support-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import providerWebhookRoutes from './ingest/provider-webhook-routes';
import supportRoutes from './ingest/support-routes';
import syncAllRoutes from './ingest/sync-all-routes';
import syncRoutes from './ingest/sync-routes';
import adminCallsRoutes from './read/admin-calls-routes';
import { callsViewRoutes } from './read/calls-view-routes';
import { allClientsExportRoutes, createCallExports } from './read/export-routes';
import recordingRoutes from './read/recording-routes';
import unmaskRoutes from './read/unmask-routes';
import { adminCallsView, clientCallsView } from './read/views';

export default async function callsRoutes(app: FastifyInstance): Promise<void> {
  // One account's export slots are shared by every export route it may use.
  const exports = createCallExports(app.deps);
  await app.register(callsViewRoutes(clientCallsView(app.deps, exports)));
  await app.register(callsViewRoutes(adminCallsView(app.deps, exports)));
  await app.register(allClientsExportRoutes(exports));
  await app.register(providerWebhookRoutes);
  await app.register(syncRoutes);
  await app.register(recordingRoutes);
  await app.register(unmaskRoutes);
  await app.register(adminCallsRoutes);
  await app.register(syncAllRoutes);
  // The agency's Support Tools: a client's deliveries with Replay, its sync history, a test call.
  await app.register(supportRoutes);
}
