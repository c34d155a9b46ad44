/**
 * The dashboard feature's routes, registered by the app: the first screen in one read for the
 * client and for an admin looking at a client, over the same calls views as their calls
 * endpoints (calls/read/views.ts). The demo's is mounted with the demo (demo/routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { createCallExports } from '../calls/read/export-routes';
import { adminCallsView, clientCallsView } from '../calls/read/views';
import { dashboardRoutes } from './dashboard-routes';
import { adminDashboard, clientDashboard } from './views';

export default async function dashboardFeatureRoutes(app: FastifyInstance): Promise<void> {
  // The first screen never exports: these views' export slots stay unused.
  const exports = createCallExports(app.deps);
  await app.register(dashboardRoutes(clientCallsView(app.deps, exports), clientDashboard));
  await app.register(dashboardRoutes(adminCallsView(app.deps, exports), adminDashboard));
}
