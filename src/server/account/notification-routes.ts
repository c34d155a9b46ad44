/**
 * GET and PUT /api/client/notifications: the four switches (DESIGN §5, §6 [4]), the digest's
 * frequency and the quiet hours, persisted; GET shows the webhook URL beside them.
 */
import type { FastifyInstance } from 'fastify';
import { NotificationChannels, NotificationPrefs, NotificationPrefsBody } from '../../contract/account';
import { recordChange } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import type { ZodTypeProvider } from '../http/route-schemas';
import { readNotificationPrefs, saveNotificationPrefs } from './notification-prefs';

export default async function notificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now } = app.deps;

  async function prefsWithWebhook(clientId: string): Promise<NotificationPrefs> {
    const [prefs, webhook] = await Promise.all([
      readNotificationPrefs(db, clientId),
      db.selectFrom('client_webhooks').select('url').where('client_id', '=', clientId).executeTakeFirst(),
    ]);
    return { ...prefs, webhookUrl: webhook?.url ?? null };
  }

  app.get(
    '/api/client/notifications',
    {
      config: { permission: 'notifications' },
      schema: { summary: 'Notification preferences', tags: ['client'], response: { 200: NotificationPrefs } },
    },
    async (request) => prefsWithWebhook(requireClient(request).id),
  );

  app.get(
    '/api/client/notifications/channels',
    {
      config: { permission: 'notifications' },
      schema: {
        summary: 'Which notification channels this server can send',
        tags: ['client'],
        response: { 200: NotificationChannels },
      },
    },
    async (request) => ({
      email: app.deps.config.mail.smtpUrl !== null,
      sms: app.deps.config.twilio !== null,
      smsTo: requireClient(request).phone_number ?? null,
    }),
  );

  app.put(
    '/api/client/notifications',
    {
      config: { permission: 'notifications' },
      schema: {
        summary: 'Update notification preferences',
        tags: ['client'],
        body: NotificationPrefsBody,
        response: { 200: NotificationPrefs },
      },
    },
    async (request) => {
      const client = requireClient(request);
      await saveNotificationPrefs(db, client.id, request.body, now());
      await recordChange(db, requireClientUser(request), 'settings_change', { what: 'notifications' }, now());
      return prefsWithWebhook(client.id);
    },
  );
}
