/** GET and PUT /api/client/notifications: the four preferences, persisted (DESIGN §5, §6 [4]). */
import type { FastifyInstance } from 'fastify';
import { NotificationPrefs } from '../../contract/account';
import { requireClient } from '../auth/guards';
import { parseInput } from '../errors';
import { readNotificationPrefs, saveNotificationPrefs } from './notification-prefs';

export default async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db, now } = app.deps;

  app.get('/api/client/notifications', async (request): Promise<NotificationPrefs> => {
    const client = await requireClient(app, request);
    return readNotificationPrefs(db, client.id);
  });

  app.put('/api/client/notifications', async (request): Promise<NotificationPrefs> => {
    const client = await requireClient(app, request);
    const prefs = parseInput(NotificationPrefs, request.body);
    await saveNotificationPrefs(db, client.id, prefs, now());
    return prefs;
  });
}
