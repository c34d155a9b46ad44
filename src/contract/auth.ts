/** Login payloads and session shapes (SPEC §3, §7; DESIGN §6 [8] [9]). */
import { z } from 'zod';
import { VOICE_PROVIDERS } from './providers';

/** The password rule of every client password (change, invitation). */
export const MIN_PASSWORD_LENGTH = 10;

export const ClientLoginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1000),
});
export type ClientLoginBody = z.infer<typeof ClientLoginBody>;

export const AdminLoginBody = z.object({
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(1000),
});
export type AdminLoginBody = z.infer<typeof AdminLoginBody>;

export const API_KEY_STATUSES = ['valid', 'invalid', 'missing'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** What GET /api/client/session answers: never the API key or the password hash. */
export const ClientSession = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  companyName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  jobTitle: z.string().nullable(),
  /** The provider webhook URL, a credential: null for a user whose role lacks `keys`. */
  webhookUrl: z.string().nullable(),
  /** Whether this account's webhook deliveries must be signed (X-Webhook-Signature). */
  hasWebhookSigningSecret: z.boolean(),
  apiKeyStatus: z.enum(API_KEY_STATUSES),
  timezone: z.string(),
  /** The voice platform the account's agents run on. */
  provider: z.enum(VOICE_PROVIDERS),
  /**
   * Whether the agency lets this client see the voice platform named (its name, its terms such as
   * "Pathway", its header names); off, the browser words everything without the vendor.
   */
  showPlatformDetails: z.boolean(),
  /** Whether the agency lets this client replace the platform API key; off, PUT answers 403. */
  clientManagesApiKey: z.boolean(),
});
export type ClientSession = z.infer<typeof ClientSession>;

export const ClientLoginResponse = z.object({
  success: z.literal(true),
  client: ClientSession,
  /** Present when the password is one the agency chose: nothing else answers until it is changed. */
  mustChangePassword: z.literal(true).optional(),
});
export type ClientLoginResponse = z.infer<typeof ClientLoginResponse>;

export const AdminSession = z.object({ id: z.string(), username: z.string(), name: z.string() });
export type AdminSession = z.infer<typeof AdminSession>;

export const INVALID_CLIENT_LOGIN = 'Invalid email or password';
export const INVALID_ADMIN_LOGIN = 'Invalid username or password';
