/** POST /api/client/calls/sync: the logged-in client's pull from the voice provider. */
import type { FastifyInstance } from 'fastify';
import { SyncResult } from '../../contract/calls';
import { requireClient } from '../auth/guards';
import type { ZodTypeProvider } from '../route-schemas';
import { syncClientCalls } from './sync';

export default async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/api/client/calls/sync', { schema: { response: { 200: SyncResult } } }, async (request) =>
    syncClientCalls(app.deps, requireClient(request).id),
  );
}
