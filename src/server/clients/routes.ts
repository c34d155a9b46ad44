/**
 * Client management under /api/admin/*: the clients list and form, and the onboarding wizard.
 * The admin's calls of one client and sync-all are calls endpoints (calls/routes.ts). Each handler
 * calls requireAdmin first.
 */
import type { FastifyInstance } from 'fastify';
import adminClientRoutes from './admin-client-routes';
import onboardingRoutes from './onboarding-routes';

export default async function clientsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(adminClientRoutes);
  await app.register(onboardingRoutes);
}
