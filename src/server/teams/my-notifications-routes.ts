/**
 * GET and PUT /api/client/me/notifications (issue 36): the signed-in person's own notification
 * choices, e-mail and SMS, each `default` (the account-wide switch), `on` or `off`, and their
 * mobile number. Any user, about themselves only (`signed_in`): the user comes from the session,
 * never from the request. Who then gets what: notifications/recipients.ts.
 */
import type { FastifyInstance } from 'fastify';
import {
  MY_NOTIFICATION_MESSAGES,
  MyNotifications,
  MyNotificationsBody,
  choiceOf,
} from '../../contract/notification-choices';
import { readNotificationPrefs } from '../account/notification-prefs';
import { requireClient, requireClientUser } from '../auth/guards';
import type { ClientRow } from '../db/schema';
import { badRequest, unauthorized } from '../http/errors';
import type { ZodTypeProvider } from '../http/route-schemas';
import { readChoices, saveChoices } from './notification-choices';
import { recordChange } from './record-change';

const SIGNED_IN = { config: { permission: 'signed_in' as const } };

export default async function myNotificationsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, now, config } = app.deps;

  async function answer(client: ClientRow, userId: string): Promise<MyNotifications> {
    const [choices, prefs] = await Promise.all([
      readChoices(db, client.id, userId),
      readNotificationPrefs(db, client.id),
    ]);
    if (!choices) throw unauthorized();
    const fallback = choices.is_account_login === 1 ? (client.phone_number ?? null) : null;
    return {
      email: choiceOf(choices.notify_email),
      sms: choiceOf(choices.notify_sms),
      smsNumber: choices.sms_number,
      smsTo: choices.sms_number ?? fallback,
      defaults: { email: prefs.emailNotifications, sms: prefs.smsNotifications },
      channels: { email: config.mail.smtpUrl !== null, sms: config.twilio !== null },
    };
  }

  app.get(
    '/api/client/me/notifications',
    { ...SIGNED_IN, schema: { response: { 200: MyNotifications } } },
    async (request) => answer(requireClient(request), requireClientUser(request).id),
  );

  app.put(
    '/api/client/me/notifications',
    { ...SIGNED_IN, schema: { body: MyNotificationsBody, response: { 200: MyNotifications } } },
    async (request) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      const before = await answer(client, user.id);
      const smsNumber = request.body.smsNumber === undefined ? before.smsNumber : request.body.smsNumber;
      const sms = request.body.sms ?? before.sms;
      // Texts switched on for yourself need somewhere to go: your number, or the account's.
      const fallback = user.is_account_login === 1 ? client.phone_number : null;
      if (sms === 'on' && !smsNumber && !fallback)
        throw badRequest(MY_NOTIFICATION_MESSAGES.smsNeedsNumber, {
          smsNumber: MY_NOTIFICATION_MESSAGES.smsNeedsNumber,
        });
      await db.transaction().execute(async (trx) => {
        await saveChoices(trx, client.id, user.id, request.body, now());
        await recordChange(
          trx,
          request,
          'settings_change',
          { what: 'my notifications', changed: Object.keys(request.body) },
          now(),
        );
      });
      return answer(client, user.id);
    },
  );
}
