/** The privacy feature's routes, registered by the app: the privacy settings and callers' erasure. */
import type { FastifyInstance } from 'fastify';
import erasureRoutes from './erasure-routes';
import privacyRoutes from './privacy-routes';

export default async function privacyFeatureRoutes(app: FastifyInstance): Promise<void> {
  await app.register(privacyRoutes);
  await app.register(erasureRoutes);
}
