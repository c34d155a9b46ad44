/**
 * The client's own account: the settings account form (SPEC §5), change password and API key
 * (DESIGN §6 [4]), notification preferences (SPEC §3 defaults). Shared by the server (validation)
 * and the browser (forms and types).
 */
import { z } from 'zod';
import { isValidTimezone } from './admin';
import { API_KEY_STATUSES, MIN_PASSWORD_LENGTH } from './auth';
import { isPrintableToken, tokenCharactersMessage, webhookSigningSecretField } from './common';
import { ClientSessionWithUser } from './teams';

export const ACCOUNT_MESSAGES = {
  mustChangePassword: 'Your password was set by your agency: choose your own to continue.',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  invalidEmail: 'Invalid email address',
  invalidPhone: 'Please enter the phone number in international format, e.g. +14155550123',
  emailTaken: 'This email address is already used by another account',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Current password is incorrect',
  newPasswordTooShort: 'New password must be at least 10 characters',
  newPasswordSame: 'New password must be different from the current password',
  passwordsDiffer: 'Passwords do not match',
  apiKeyRequired: 'API key is required',
  apiKeyInvalid: 'The voice provider rejected this API key. Check it and try again.',
  apiKeyUnchecked: 'The voice provider could not be reached to check the key. Please try again in a minute.',
  invalidTimezone: 'Please choose a valid time zone (e.g. UTC or America/New_York)',
  apiKeyManagedByAgency: 'Your agency manages the API key for this account. Ask them to change it.',
} as const;

export { MIN_PASSWORD_LENGTH };

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

/** DESIGN §6 [6]: E.164 or empty. Spaces, dashes, dots and brackets people type are dropped. */
const phoneField = z
  .string()
  .max(40, 'Must be at most 40 characters')
  .transform((v) => v.replace(/[\s\-().]/g, ''))
  .refine((v) => v === '' || /^\+[1-9]\d{6,14}$/.test(v), ACCOUNT_MESSAGES.invalidPhone);

/**
 * SPEC §5 account form; the body of PUT /api/client/account. A patch: a field left
 * out keeps its stored value; the form sends them all. An optional text sent empty clears it.
 */
export const AccountForm = z.object({
  firstName: text(100).min(1, ACCOUNT_MESSAGES.firstNameRequired).optional(),
  lastName: text(100).min(1, ACCOUNT_MESSAGES.lastNameRequired).optional(),
  email: z
    .string()
    .trim()
    .max(320, 'Must be at most 320 characters')
    .email(ACCOUNT_MESSAGES.invalidEmail)
    .transform((v) => v.toLowerCase())
    .optional(),
  companyName: text(200).optional(),
  phoneNumber: phoneField.optional(),
  jobTitle: text(200).optional(),
  /** The IANA zone of the account's e-mails, reports and exports (the Owner's Settings). */
  timezone: text(100).min(1).refine(isValidTimezone, ACCOUNT_MESSAGES.invalidTimezone).optional(),
});
export type AccountFormInput = z.input<typeof AccountForm>;
export type AccountForm = z.output<typeof AccountForm>;

/** The account as GET /api/client/session answers it, with the signed-in person. */
export const AccountUpdateResponse = z.object({ success: z.literal(true), client: ClientSessionWithUser });
export type AccountUpdateResponse = z.infer<typeof AccountUpdateResponse>;

/** Body of POST /api/client/change-password. */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, ACCOUNT_MESSAGES.currentPasswordRequired).max(1000),
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, ACCOUNT_MESSAGES.newPasswordTooShort)
    .max(1000, 'Must be at most 1000 characters'),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** The dialog's form: the body plus a confirmation that must match. */
export const ChangePasswordForm = ChangePasswordBody.extend({ confirmPassword: z.string() }).refine(
  (v) => v.newPassword === v.confirmPassword,
  { message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['confirmPassword'] },
);
export type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

/** Body of PUT /api/client/api-key. */
export const ApiKeyBody = z.object({
  blandApiKey: z
    .string()
    .trim()
    .min(1, ACCOUNT_MESSAGES.apiKeyRequired)
    .max(500, 'Must be at most 500 characters')
    .refine(isPrintableToken, tokenCharactersMessage('The API key')),
});

/** Body of PUT /api/client/webhook-signing-secret: a new secret, or '' / null to remove it. */
export const WebhookSecretBody = z.object({ secret: webhookSigningSecretField });
export const WebhookSecretResponse = z.object({ hasWebhookSigningSecret: z.boolean() });
export type WebhookSecretResponse = z.infer<typeof WebhookSecretResponse>;
export type ApiKeyBody = z.infer<typeof ApiKeyBody>;

export const ApiKeyResponse = z.object({ success: z.literal(true), apiKeyStatus: z.enum(API_KEY_STATUSES) });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

/** SPEC §3's four switches, with their names and defaults unchanged. */
export const NotificationSwitches = z.object({
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  webhookNotifications: z.boolean(),
  monthlyReports: z.boolean(),
});
export type NotificationSwitches = z.infer<typeof NotificationSwitches>;

/** The e-mail digest of the period's calls, sent at 08:00 in the client's time zone. */
export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];
const localHour = z.number().int().min(0).max(23);
/** Texts are held from `start` to `end` (local hours; 21 → 8 spans the night; equal: never held). */
export const QuietHours = z.object({ start: localHour, end: localHour });
export type QuietHours = z.infer<typeof QuietHours>;
/**
 * How long after a call ended it may still alert (e-mail, text), in minutes: alerts are for calls
 * that just happened, never for history arriving late.
 */
export const ALERT_WINDOW_MINUTES = { default: 60, min: 5, max: 1440 } as const;
export const AlertWindowMinutes = z
  .number()
  .int()
  .min(ALERT_WINDOW_MINUTES.min, `Must be at least ${ALERT_WINDOW_MINUTES.min} minutes`)
  .max(ALERT_WINDOW_MINUTES.max, `Must be at most ${ALERT_WINDOW_MINUTES.max} minutes (a day)`);

/** GET /api/client/notifications: the switches, the digest, quiet hours and the webhook URL. */
export const NotificationPrefs = NotificationSwitches.extend({
  digest: z.enum(DIGEST_FREQUENCIES),
  quietHours: QuietHours,
  alertWindowMinutes: AlertWindowMinutes,
  /** Set in Settings › Notifications › Webhook endpoint (PUT /api/client/integrations/webhook). */
  webhookUrl: z.string().nullable(),
});
export type NotificationPrefs = z.infer<typeof NotificationPrefs>;

/** PUT /api/client/notifications: a patch, each setting left out keeps its stored value. */
export const NotificationPrefsBody = NotificationSwitches.partial().extend({
  digest: z.enum(DIGEST_FREQUENCIES).optional(),
  quietHours: QuietHours.optional(),
  alertWindowMinutes: AlertWindowMinutes.optional(),
});
export type NotificationPrefsBody = z.infer<typeof NotificationPrefsBody>;

/** GET /api/client/notifications/channels: which channels this installation can send on, and why not. */
export const NotificationChannels = z.object({
  /** False when the server has no SMTP relay (SMTP_URL). */
  email: z.boolean(),
  /** False when the server has no Twilio account (TWILIO_*). */
  sms: z.boolean(),
  /** The number texts go to (the account's phone number); null when none is set. */
  smsTo: z.string().nullable(),
});
export type NotificationChannels = z.infer<typeof NotificationChannels>;

export const DEFAULT_NOTIFICATION_PREFS: Omit<NotificationPrefs, 'webhookUrl'> = {
  emailNotifications: true,
  smsNotifications: false,
  webhookNotifications: true,
  monthlyReports: true,
  digest: 'weekly',
  quietHours: { start: 21, end: 8 },
  alertWindowMinutes: ALERT_WINDOW_MINUTES.default,
};

export const NOTIFICATION_LABELS: Record<keyof NotificationSwitches, { label: string; description: string }> =
  {
    emailNotifications: {
      label: 'Email notifications',
      description: 'Call summaries and account alerts by email',
    },
    smsNotifications: { label: 'SMS notifications', description: 'Urgent alerts by text message' },
    webhookNotifications: {
      label: 'Webhook notifications',
      description: 'Call events posted to your systems',
    },
    monthlyReports: {
      label: 'Monthly reports',
      description: 'A usage and cost report at the start of each month',
    },
  };
