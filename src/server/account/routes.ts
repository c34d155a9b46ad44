/**
 * The logged-in client's own account: profile, password, API key, webhook secret, notification
 * preferences; and each person's screen choices (clients and admins).
 */
import type { FastifyInstance } from 'fastify';
import notificationRoutes from './notification-routes';
import preferencesRoutes from './preferences-routes';
import profileRoutes from './profile-routes';
import providerSigningSecretRoutes from './provider-signing-secret-routes';
import securityRoutes from './security-routes';

export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  await app.register(profileRoutes);
  await app.register(securityRoutes);
  await app.register(providerSigningSecretRoutes);
  await app.register(notificationRoutes);
  await app.register(preferencesRoutes);
}
