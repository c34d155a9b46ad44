/** POST /api/client/calls/sync: the logged-in client's pull from the voice provider. */
import type { FastifyInstance } from 'fastify';
import { requireClient } from '../auth/guards';
import { syncClientCalls } from './sync';

export default async function syncRoutes(app: FastifyInstance): Promise<void> {
  app.post('/api/client/calls/sync', async (request) => {
    const client = await requireClient(app, request);
    return syncClientCalls(app.deps, client.id);
  });
}
