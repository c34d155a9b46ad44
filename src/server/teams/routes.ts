/**
 * The teams feature's routes, registered by the app: a client's users and invitations (with the
 * admin's view of them), a user's own notification choices, the activity log, and an admin's
 * reset of a user's two-factor sign-in.
 */
import type { FastifyInstance } from 'fastify';
import activityRoutes from './activity-routes';
import myNotificationsRoutes from './my-notifications-routes';
import twoFactorResetRoutes from './two-factor-reset-routes';
import usersRoutes from './users-routes';

export default async function teamsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(usersRoutes);
  await app.register(twoFactorResetRoutes);
  await app.register(myNotificationsRoutes);
  await app.register(activityRoutes);
}
