/** The notifications feature's routes, registered by the app: a client's outgoing webhook. */
import type { FastifyInstance } from 'fastify';
import clientWebhookRoutes from './client-webhook-routes';

export default async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(clientWebhookRoutes);
}
