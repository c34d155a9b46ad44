/**
 * The dashboards' first screen for the client and for the admin looking at a client, over the
 * calls views of calls/read (the demo's is mounted by demo/routes.ts). The views' export slots
 * are their own here: the first screen never exports.
 */
import type { FastifyInstance } from 'fastify';
import { createCallExports } from '../calls/read/export-routes';
import { adminCallsView, clientCallsView } from '../calls/read/views';
import { dashboardRoutes } from './dashboard-routes';
import { adminDashboard, clientDashboard } from './views';

export default async function dashboardsRoutes(app: FastifyInstance): Promise<void> {
  const exports = createCallExports(app.deps);
  await app.register(dashboardRoutes(clientCallsView(app.deps, exports), clientDashboard));
  await app.register(dashboardRoutes(adminCallsView(app.deps, exports), adminDashboard));
}
