/** GET and PUT /api/client/notifications: the four preferences, persisted (DESIGN §5, §6 [4]). */
import type { FastifyInstance } from 'fastify';
import { NotificationChannels, NotificationPrefs } from '../../contract/account';
import { requireClient } from '../auth/guards';
import type { ZodTypeProvider } from '../route-schemas';
import { readNotificationPrefs, saveNotificationPrefs } from './notification-prefs';

export default async function notificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  app.get(
    '/api/client/notifications',
    { schema: { response: { 200: NotificationPrefs } } },
    async (request) => readNotificationPrefs(db, requireClient(request).id),
  );

  app.get(
    '/api/client/notifications/channels',
    { schema: { response: { 200: NotificationChannels } } },
    async (request) => ({
      email: app.deps.config.mail.smtpUrl !== null,
      sms: app.deps.config.twilio !== null,
      smsTo: requireClient(request).phone_number ?? null,
    }),
  );

  app.put(
    '/api/client/notifications',
    { schema: { body: NotificationPrefs, response: { 200: NotificationPrefs } } },
    async (request) => {
      await saveNotificationPrefs(db, requireClient(request).id, request.body, now());
      return request.body;
    },
  );
}
