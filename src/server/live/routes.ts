/** The live feature's routes, registered by the app: the server-sent event streams. */
import type { FastifyInstance } from 'fastify';
import streamRoutes from './stream-routes';

export default async function liveRoutes(app: FastifyInstance): Promise<void> {
  await app.register(streamRoutes);
}
