/**
 * Per-user notification choices: GET/PUT /api/client/me/notifications, what the
 * signed-in person chose for themselves. Each channel is `default` (follow the account-wide
 * switch in Settings › Notifications), `on` or `off`; texts go to the person's own mobile number.
 * Shared by the server (validation) and the browser (the "My notifications" card).
 */
import { z } from 'zod';

export const NOTIFICATION_CHOICES = ['default', 'on', 'off'] as const;
export type NotificationChoice = (typeof NOTIFICATION_CHOICES)[number];

export const MY_NOTIFICATION_MESSAGES = {
  invalidPhone: 'Please enter the mobile number in international format, e.g. +14155550123',
  smsNeedsNumber: 'Enter a mobile number to get texts',
  saved: 'Your notification choices have been saved.',
} as const;

/**
 * Why a number gets no texts, and the verification's answers: texts go only to a mobile number
 * someone of the client proved is theirs with a code (server: notifications/sms-numbers.ts).
 */
export const SMS_NUMBER_MESSAGES = {
  invalid: 'This is not a valid phone number; enter a mobile number, e.g. +14155550123',
  international:
    'Satellite and international network numbers (+870, +881, +882, +883…) cannot get texts; enter a mobile number',
  premium: 'Premium-rate numbers cannot get texts; enter a mobile number',
  sharedCost: 'Shared-cost numbers cannot get texts; enter a mobile number',
  notMobile: 'Texts go only to mobile numbers; this number is not one',
  noNumber: 'Save a mobile number first',
  alreadyVerified: 'This number is already verified',
  codeSent: 'We texted you a 6-digit code; enter it within 10 minutes.',
  codeWrong: 'That code is not right; check the text and try again',
  noCode: 'No code is waiting for this number (it expired or was tried too often); send a new one',
  codeFormat: 'Enter the 6-digit code from the text',
  verified: 'Your number is verified: texts can go to it now.',
  textsOff: 'This server does not send texts',
  textsUsedUp: 'Your account has had all its texts for today; try again tomorrow',
  twilioRefused: 'Twilio could not text this number; check it and try again',
  twilioDown: 'Texts cannot be sent right now; try again in a few minutes',
} as const;

/**
 * E.164, as the account's phone number is stored: spaces, dashes, dots and brackets people type
 * are dropped; empty or null clears it.
 */
const smsNumberField = z
  .string()
  .max(40, 'Must be at most 40 characters')
  .nullable()
  .transform((v) => (v ?? '').replace(/[\s\-().]/g, ''))
  .refine((v) => v === '' || /^\+[1-9]\d{6,14}$/.test(v), MY_NOTIFICATION_MESSAGES.invalidPhone)
  .transform((v) => (v === '' ? null : v));

/** GET /api/client/me/notifications (and PUT's answer). */
export const MyNotifications = z.object({
  email: z.enum(NOTIFICATION_CHOICES),
  sms: z.enum(NOTIFICATION_CHOICES),
  /** The person's own mobile number; null when none is set. */
  smsNumber: z.string().nullable(),
  /** Where texts would go now: the own number, or for the account login the account's phone number. */
  smsTo: z.string().nullable(),
  /** Texts go to `smsTo` only once verified by a code sent to it. */
  smsVerified: z.boolean(),
  /** A code was sent to `smsTo` and can still be confirmed. */
  smsCodePending: z.boolean(),
  /** The person holds `receive_texts`: without it they get no texts, whatever they chose. */
  smsAllowed: z.boolean(),
  /** The account-wide switches that `default` follows. */
  defaults: z.object({ email: z.boolean(), sms: z.boolean() }),
  /** Which channels this installation can send on (SMTP_URL, TWILIO_*). */
  channels: z.object({ email: z.boolean(), sms: z.boolean() }),
});
export type MyNotifications = z.infer<typeof MyNotifications>;

/** PUT /api/client/me/notifications: a patch; what is left out keeps its value. */
export const MyNotificationsBody = z
  .object({
    email: z.enum(NOTIFICATION_CHOICES).optional(),
    sms: z.enum(NOTIFICATION_CHOICES).optional(),
    smsNumber: smsNumberField.optional(),
  })
  .strict();
export type MyNotificationsBody = z.infer<typeof MyNotificationsBody>;
export type MyNotificationsBodyInput = z.input<typeof MyNotificationsBody>;

/** POST /api/client/me/notifications/sms-code/confirm: the code texted to the number. */
export const ConfirmSmsCodeBody = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, SMS_NUMBER_MESSAGES.codeFormat),
  })
  .strict();
export type ConfirmSmsCodeBody = z.infer<typeof ConfirmSmsCodeBody>;

/** A stored choice (1, 0, null) as the API says it. */
export function choiceOf(stored: number | null): NotificationChoice {
  return stored === null ? 'default' : stored === 1 ? 'on' : 'off';
}

export function storedChoice(choice: NotificationChoice): number | null {
  return choice === 'default' ? null : choice === 'on' ? 1 : 0;
}

/** What a person gets on a channel: their own choice, or the account's switch. */
export function isChannelOn(stored: number | null, accountDefault: boolean): boolean {
  return stored === null ? accountDefault : stored === 1;
}
