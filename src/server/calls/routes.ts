/**
 * Everything about calls: provider deliveries and sync (ingest/), the log, analytics, exports and
 * recordings (read/), for the client and the admin.
 */
import type { FastifyInstance } from 'fastify';
import providerWebhookRoutes from './ingest/provider-webhook-routes';
import syncAllRoutes from './ingest/sync-all-routes';
import syncRoutes from './ingest/sync-routes';
import adminCallsRoutes from './read/admin-calls-routes';
import callLogRoutes from './read/call-log-routes';
import exportRoutes from './read/export-routes';
import recordingRoutes from './read/recording-routes';

export default async function callsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(callLogRoutes);
  await app.register(exportRoutes);
  await app.register(providerWebhookRoutes);
  await app.register(syncRoutes);
  await app.register(recordingRoutes);
  await app.register(adminCallsRoutes);
  await app.register(syncAllRoutes);
}
