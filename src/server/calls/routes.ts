/** Everything about calls: the log and analytics, webhook ingestion, sync, recordings. */
import type { FastifyInstance } from 'fastify';
import callLogRoutes from './call-log-routes';
import exportRoutes from './export-routes';
import recordingRoutes from './recording-routes';
import syncRoutes from './sync-routes';
import webhookRoutes from './webhook-routes';

export default async function callsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(callLogRoutes);
  await app.register(exportRoutes);
  await app.register(webhookRoutes);
  await app.register(syncRoutes);
  await app.register(recordingRoutes);
}
