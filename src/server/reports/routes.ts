/** The reports feature's routes, registered by the app: the monthly report download. */
import type { FastifyInstance } from 'fastify';
import reportRoutes from './report-routes';

export default async function reportsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(reportRoutes);
}
