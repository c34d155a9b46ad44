/**
 * GET and PUT /api/client/me/notifications: the signed-in person's own notification
 * choices, e-mail and SMS, each `default` (the account-wide switch), `on` or `off`, and their
 * mobile number. Any user, about themselves only (`signed_in`): the user comes from the session,
 * never from the request. Who then gets what: notifications/recipients.ts.
 *
 * Texts cost the agency money, so texts are for holders of `receive_texts` only, to a mobile
 * number of a kind a person carries, once proved with a code: POST …/sms-code texts a code to
 * the number texts would go to, POST …/sms-code/confirm checks it (notifications/sms-numbers.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  ConfirmSmsCodeBody,
  choiceOf,
  MY_NOTIFICATION_MESSAGES,
  MyNotifications,
  MyNotificationsBody,
  SMS_NUMBER_MESSAGES,
} from '../../contract/notification-choices';
import { TEAM_MESSAGES } from '../../contract/teams';
import { readChoices, saveChoices } from '../access/notification-choices';
import { hasPermission } from '../access/permissions';
import { readNotificationPrefs } from '../account/notification-prefs';
import { recordChange } from '../activity/record';
import { requireClient, requireClientUser } from '../auth/guards';
import { loadBrand } from '../brand/brand-store';
import type { ClientRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import {
  badRequest,
  conflict,
  forbidden,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
} from '../http/errors';
import { apiDoc } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import {
  confirmCode,
  refundText,
  smsNumberState,
  spendText,
  startVerification,
  textableNumberProblem,
} from '../notifications/sms-numbers';
import { createTwilioClient } from '../providers/messaging/twilio';

const SIGNED_IN = { config: { permission: 'signed_in' as const } };
const RECEIVE_TEXTS = { config: { permission: 'receive_texts' as const } };
const HOUR_MS = 60 * 60 * 1000;

export default async function myNotificationsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db, now, config } = deps;

  async function answer(client: ClientRow, userId: string): Promise<MyNotifications> {
    const [choices, prefs] = await Promise.all([
      readChoices(db, client.id, userId),
      readNotificationPrefs(db, client.id),
    ]);
    if (!choices) throw unauthorized();
    const fallback = choices.is_account_login === 1 ? (client.phone_number ?? null) : null;
    const smsTo = choices.sms_number ?? fallback;
    const state = await smsNumberState(db, client.id, smsTo, now());
    return {
      email: choiceOf(choices.notify_email),
      sms: choiceOf(choices.notify_sms),
      smsNumber: choices.sms_number,
      smsTo,
      smsVerified: state.verified,
      smsCodePending: state.codePending,
      smsAllowed: hasPermission(choices, 'receive_texts'),
      defaults: { email: prefs.emailNotifications, sms: prefs.smsNotifications },
      channels: { email: config.mail.smtpUrl !== null, sms: config.twilio !== null },
    };
  }

  /** Where texts would go for this person: their own number, or the account login's fallback. */
  async function smsToOf(client: ClientRow, userId: string): Promise<string> {
    const smsTo = (await answer(client, userId)).smsTo;
    if (!smsTo) throw badRequest(SMS_NUMBER_MESSAGES.noNumber, { smsNumber: SMS_NUMBER_MESSAGES.noNumber });
    return smsTo;
  }

  app.get(
    '/api/client/me/notifications',
    {
      ...SIGNED_IN,
      schema: {
        summary: 'The signed-in person’s own notification choices',
        tags: ['client'],
        response: { 200: MyNotifications },
      },
    },
    async (request) => answer(requireClient(request), requireClientUser(request).id),
  );

  app.put(
    '/api/client/me/notifications',
    {
      ...SIGNED_IN,
      schema: {
        summary: 'Save the signed-in person’s own notification choices',
        tags: ['client'],
        body: MyNotificationsBody,
        response: { 200: MyNotifications },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      const before = await answer(client, user.id);
      const smsNumber = request.body.smsNumber === undefined ? before.smsNumber : request.body.smsNumber;
      const sms = request.body.sms ?? before.sms;
      // Turning texts on, or giving a number for them, is for those allowed texts; off is for anyone.
      if ((request.body.sms === 'on' || request.body.smsNumber) && !hasPermission(user, 'receive_texts'))
        throw forbidden(TEAM_MESSAGES.missingPermission('receive_texts'));
      if (request.body.smsNumber) {
        const problem = textableNumberProblem(request.body.smsNumber);
        if (problem) throw badRequest(problem, { smsNumber: problem });
      }
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
          requireClientUser(request),
          'settings_change',
          { what: 'my notifications', changed: Object.keys(request.body) },
          now(),
        );
      });
      return answer(client, user.id);
    },
  );

  app.post(
    '/api/client/me/notifications/sms-code',
    {
      ...RECEIVE_TEXTS,
      schema: {
        summary: 'Text a 6-digit code to the person’s number, to verify it for texts',
        tags: ['client'],
        description:
          'Texts go only to a verified mobile number: this texts a code, good for 10 minutes and 5 tries, to the number texts would go to (`smsTo`). Premium-rate, shared-cost, satellite and other numbers that are not mobile are refused (400); an already verified number answers 409; a code costs one of the client’s texts for the day (TEXTS_PER_CLIENT_PER_DAY) and codes are capped per user (CAP_SMS_CODES_PER_HOUR): 429. 502 when Twilio fails, 503 when this server sends no texts.',
        ...apiDoc({ errors: [409, 429, 502, 503] }),
        response: { 200: MyNotifications },
      },
    },
    async (request, reply) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      if (!config.twilio) throw serviceUnavailable(SMS_NUMBER_MESSAGES.textsOff);
      const smsTo = await smsToOf(client, user.id);
      const problem = textableNumberProblem(smsTo);
      if (problem) throw badRequest(problem, { smsNumber: problem });
      if ((await smsNumberState(db, client.id, smsTo, now())).verified)
        throw conflict(SMS_NUMBER_MESSAGES.alreadyVerified);
      await enforceCreationCap(deps, reply, {
        key: `sms-code:${user.id}`,
        max: config.creationCaps.smsCodesPerHour,
        windowMs: HOUR_MS,
        what: 'verification codes',
      });
      // A code is a text like any other: it spends the client's daily budget.
      const spentAt = now();
      if (!(await spendText(deps, client.id))) {
        reply.header('retry-after', String(secondsToNextUtcDay(spentAt)));
        throw tooManyRequests(SMS_NUMBER_MESSAGES.textsUsedUp);
      }
      const code = await startVerification(db, client.id, smsTo, now());
      const brand = await loadBrand(deps);
      try {
        await createTwilioClient(config.twilio).sendSms(
          smsTo,
          `${brand.settings.name}: your code is ${code}. It verifies this number for call alerts and expires in 10 minutes.`,
        );
      } catch (error) {
        // Not sent: the budget back; the error handler says what Twilio answered.
        await refundText(deps, client.id, spentAt);
        throw error;
      }
      await recordChange(
        db,
        requireClientUser(request),
        'settings_change',
        { what: 'sms number code sent' },
        now(),
      );
      return answer(client, user.id);
    },
  );

  app.post(
    '/api/client/me/notifications/sms-code/confirm',
    {
      ...RECEIVE_TEXTS,
      schema: {
        summary: 'Confirm the code texted to the person’s number: texts may go to it from now on',
        tags: ['client'],
        body: ConfirmSmsCodeBody,
        response: { 200: MyNotifications },
      },
    },
    async (request) => {
      const client = requireClient(request);
      const user = requireClientUser(request);
      const smsTo = await smsToOf(client, user.id);
      const result = await confirmCode(db, client.id, smsTo, request.body.code, user.id, now());
      if (result === 'none')
        throw badRequest(SMS_NUMBER_MESSAGES.noCode, { code: SMS_NUMBER_MESSAGES.noCode });
      if (result === 'wrong')
        throw badRequest(SMS_NUMBER_MESSAGES.codeWrong, { code: SMS_NUMBER_MESSAGES.codeWrong });
      await recordChange(
        db,
        requireClientUser(request),
        'settings_change',
        { what: 'sms number verified' },
        now(),
      );
      return answer(client, user.id);
    },
  );
}

function secondsToNextUtcDay(at: number): number {
  const day = 24 * 60 * 60 * 1000;
  return Math.max(1, Math.ceil(((Math.floor(at / day) + 1) * day - at) / 1000));
}
