/**
 * Everything under /api/admin/* except login, logout, session (auth/routes.ts) and the recording
 * stream (calls/recording-routes.ts): client management, the onboarding wizard, sync-all and the
 * admin's view of one client's data. Each handler calls requireAdmin first.
 */
import type { FastifyInstance } from 'fastify';
import adminCallsRoutes from './admin-calls-routes';
import adminClientRoutes from './admin-client-routes';
import onboardingRoutes from './onboarding-routes';
import syncAllRoutes from './sync-all-routes';

export default async function clientsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(adminClientRoutes);
  await app.register(onboardingRoutes);
  await app.register(adminCallsRoutes);
  await app.register(syncAllRoutes);
}
