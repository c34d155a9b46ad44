/**
 * The admin area's shapes and form rules (SPEC §3, §5, §7; DESIGN §6 [6] [14]): client list items,
 * client configuration, the create-client and edit-client schemas, option lists, onboarding and
 * sync-all answers. Shared by the server (validation) and the browser (forms, types).
 */
import { z } from 'zod';
import { API_KEY_STATUSES } from './auth';
import { isPrintableToken, tokenCharactersMessage, webhookSigningSecretField } from './common';
import { DEFAULT_VOICE_PROVIDER, VOICE_PROVIDERS } from './providers';

/**
 * One list of industries and company sizes for the create wizard and Edit Client (SPEC gave each
 * form its own; an agency saw a size in one it could not pick in the other).
 */
export const INDUSTRIES = [
  'technology',
  'healthcare',
  'finance',
  'education',
  'retail',
  'manufacturing',
  'real-estate',
  'other',
] as const;
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1000+'] as const;
/** Sizes the two forms stored before they shared one list: kept and shown, no longer offered. */
export const LEGACY_COMPANY_SIZES = ['201-1000', '500+'] as const;
export const ALL_COMPANY_SIZES = [...COMPANY_SIZES, ...LEGACY_COMPANY_SIZES] as const;

export const ACCOUNT_TYPES = ['individual', 'master_account'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = {
  individual: 'Individual',
  master_account: 'Master Account',
};

export const INDUSTRY_LABELS: Record<string, string> = {
  technology: 'Technology',
  healthcare: 'Healthcare',
  finance: 'Finance',
  education: 'Education',
  retail: 'Retail',
  manufacturing: 'Manufacturing',
  'real-estate': 'Real Estate',
  other: 'Other',
};

/** SPEC §4: how the admin list shows a client's API key status. */
export function apiKeyStatusLabel(status: string | null | undefined): string {
  if (status === 'valid') return 'Active';
  if (status === 'invalid') return 'Invalid Key';
  if (status === 'missing') return 'Non Active';
  return 'Unknown';
}

export const DEFAULT_PER_MINUTE_RATE = 0.15;
export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_ACCOUNT_TYPE: AccountType = 'individual';
export { WEBHOOK_POLL_INTERVAL_MS } from './admin-timings';

export const MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  emailRequired: 'Email is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  invalidUrl: 'Please enter a valid URL (e.g. https://example.com)',
  invalidPhone: 'Please enter the phone number in international format, e.g. +14155550123',
  invalidTimezone: 'Please choose a valid time zone (e.g. UTC or America/New_York)',
  rateDecimals: 'Rate can have at most two decimals',
  clientNotFound: 'Client not found',
  emailTaken: 'A client with this email already exists',
  emailIsOtherUser: 'This email belongs to a person of another client’s team; choose another',
  emailIsOwnUser: 'This email belongs to a person of this client’s team, or is invited there; choose another',
  loginDeactivated:
    'This client’s own login was deactivated by an Owner of the client; they can reactivate it in Settings › Users, then generate credentials again',
  webhookNotVerified:
    'No test call has reached the webhook yet. Place a test call to the webhook URL, wait for it to arrive, then try again.',
} as const;

// ---------------------------------------------------------------------------------------------
// Field rules. Empty strings mean "not given" for every optional text field (forms send "").

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** URL of type http(s), or empty. */
const websiteField = text(2048).refine((v) => v === '' || isHttpUrl(v), MESSAGES.invalidUrl);

/** DESIGN §6 [6]: E.164 or empty. Spaces, dashes, dots and brackets people type are dropped. */
const phoneField = z
  .string()
  .max(40, 'Must be at most 40 characters')
  .transform((v) => v.replace(/[\s\-().]/g, ''))
  .refine((v) => v === '' || /^\+[1-9]\d{6,14}$/.test(v), MESSAGES.invalidPhone);

/** Create form (SPEC §5): one message for a missing and a malformed address. */
const createEmailField = z
  .string()
  .trim()
  .max(320, 'Must be at most 320 characters')
  .email(MESSAGES.invalidEmail)
  .transform((v) => v.toLowerCase());

/** Edit dialog (SPEC §5 "email required"): says so when it is empty. */
const editEmailField = z
  .string()
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(320, 'Must be at most 320 characters')
  .email(MESSAGES.invalidEmail)
  .transform((v) => v.toLowerCase());

const firstNameField = text(100).min(1, MESSAGES.firstNameRequired);
const lastNameField = text(100).min(1, MESSAGES.lastNameRequired);

const optionalChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .union([z.literal(''), z.enum(values)])
    .optional()
    .default('');

export function isValidTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The optional texts of both forms; the create form reads a missing one as empty. */
const addressFields = {
  companyName: text(200).optional().default(''),
  jobTitle: text(200).optional().default(''),
  phoneNumber: phoneField.optional().default(''),
  address: text(300).optional().default(''),
  city: text(100).optional().default(''),
  state: text(100).optional().default(''),
  zipCode: text(100).optional().default(''),
  country: text(100).optional().default(''),
  notes: text(5000).optional().default(''),
  companyWebsite: websiteField.optional().default(''),
};

/** The same texts in an update: left out keeps the stored value, so no default. */
const addressPatchFields = {
  companyName: text(200).optional(),
  jobTitle: text(200).optional(),
  phoneNumber: phoneField.optional(),
  address: text(300).optional(),
  city: text(100).optional(),
  state: text(100).optional(),
  zipCode: text(100).optional(),
  country: text(100).optional(),
  notes: text(5000).optional(),
  companyWebsite: websiteField.optional(),
};

/** SPEC §5 create-client form; the body of POST /api/admin/generate-webhook. */
export const CreateClientForm = z.object({
  /** The voice platform the client's agents run on. */
  provider: z.enum(VOICE_PROVIDERS).default(DEFAULT_VOICE_PROVIDER),
  firstName: firstNameField,
  lastName: lastNameField,
  email: createEmailField,
  industry: optionalChoice(INDUSTRIES),
  companySize: optionalChoice(COMPANY_SIZES),
  ...addressFields,
  /**
   * The IANA zone its e-mails, reports and exports use; the wizard suggests one from the country
   * and state (regional.ts) or the admin's browser. Left out or empty: UTC (SPEC §9).
   */
  timezone: z
    .string()
    .trim()
    .max(100, 'Must be at most 100 characters')
    .refine((v) => v === '' || isValidTimezone(v), MESSAGES.invalidTimezone)
    .optional()
    .default(''),
  /**
   * Digests start now rather than at the client's first sign-in (alerts are never about history
   * either way); off by default, so a client is not mailed before it has a login.
   */
  notifyNow: z.boolean().default(false),
});
export type CreateClientFormInput = z.input<typeof CreateClientForm>;
export type CreateClientForm = z.output<typeof CreateClientForm>;

/**
 * SPEC §5 and DESIGN §6 [6] edit-client dialog; the body of PUT /api/admin/client-config/{id}.
 * A patch: every field may be left out and keeps its stored value then, never a
 * default; the dialog sends them all. An optional text sent empty clears it.
 */
export const EditClientForm = z.object({
  /** Omitted: keep the client's platform. */
  provider: z.enum(VOICE_PROVIDERS).optional(),
  firstName: firstNameField.optional(),
  lastName: lastNameField.optional(),
  email: editEmailField.optional(),
  accountType: z.enum(ACCOUNT_TYPES).optional(),
  perMinuteRate: z
    .number()
    .min(0)
    .max(100)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, MESSAGES.rateDecimals)
    .optional(),
  timezone: text(100).min(1).refine(isValidTimezone, MESSAGES.invalidTimezone).optional(),
  isActive: z.boolean().optional(),
  /** Let the client's screens and its callers' receipts name the voice platform (default off). */
  showPlatformDetails: z.boolean().optional(),
  /** Let the client replace the platform API key itself (default off: the agency manages it). */
  clientManagesApiKey: z.boolean().optional(),
  industry: z.union([z.literal(''), z.enum(INDUSTRIES)]).optional(),
  // A size stored from an older list stays editable.
  companySize: z.union([z.literal(''), z.enum(ALL_COMPANY_SIZES)]).optional(),
  /** Omitted or the masked value: keep the stored key. Empty: remove it. Anything else: the new key. */
  blandApiKey: z
    .string()
    .trim()
    .max(500, 'Must be at most 500 characters')
    .refine(
      (v) => v === '' || isMaskedApiKey(v) || isPrintableToken(v),
      tokenCharactersMessage('The API key'),
    )
    .nullable()
    .optional(),
  /** Write-only. Omitted: keep. Empty or null: remove. Anything else: the new secret. */
  webhookSigningSecret: webhookSigningSecretField.optional(),
  clientIdentifier: text(200).optional(),
  organizationId: text(200).optional(),
  ...addressPatchFields,
});
export type EditClientFormInput = z.input<typeof EditClientForm>;
export type EditClientForm = z.output<typeof EditClientForm>;

/** A masked key as the API shows it: its first three and last four characters. */
export function maskApiKey(key: string): string {
  if (key.length < 12) return '••••••••';
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** A value the browser sent back unchanged from what the API showed (masks never occur in real keys). */
export function isMaskedApiKey(value: string): boolean {
  return value.includes('…') || value.includes('•');
}

// ---------------------------------------------------------------------------------------------
// Responses.

/** A client as the admin area shows it (SPEC §3 Client fields); the API key only masked. */
export const AdminClient = z.object({
  id: z.string(),
  provider: z.enum(VOICE_PROVIDERS),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  companyName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  jobTitle: z.string().nullable(),
  companyWebsite: z.string().nullable(),
  industry: z.string().nullable(),
  companySize: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  country: z.string().nullable(),
  notes: z.string().nullable(),
  accountType: z.string(),
  /** Dollars per minute. */
  perMinuteRate: z.number(),
  timezone: z.string(),
  isActive: z.boolean(),
  showPlatformDetails: z.boolean(),
  clientManagesApiKey: z.boolean(),
  /** Masked (e.g. "sk-…abcd") or null when no key is stored. */
  blandApiKey: z.string().nullable(),
  apiKeyStatus: z.enum(API_KEY_STATUSES),
  clientIdentifier: z.string().nullable(),
  organizationId: z.string().nullable(),
  webhookUrl: z.string(),
  /** Whether deliveries must carry X-Webhook-Signature; the secret itself is never answered. */
  hasWebhookSigningSecret: z.boolean(),
  profileImageUrl: z.string().nullable(),
  /** pending until the wizard's finalize step. */
  onboardingStatus: z.enum(['pending', 'active', 'demo']),
  hasLoginCredentials: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string(),
  lastSyncAt: z.string().nullable(),
});
export type AdminClient = z.infer<typeof AdminClient>;

/** One row of GET /api/admin/clients (a bare array). */
export const AdminClientListItem = AdminClient.extend({
  totalCalls: z.number(),
  /** Dollars. */
  totalCost: z.number(),
  /** ISO 8601, or null when the client has no calls yet. */
  lastCallDate: z.string().nullable(),
});
export type AdminClientListItem = z.infer<typeof AdminClientListItem>;
export const AdminClientList = z.array(AdminClientListItem);

/** GET /api/admin/client-config/{id}. */
export const ClientConfig = AdminClient;
export type ClientConfig = AdminClient;

export const API_KEY_CHECKS = ['unchanged', 'removed', 'valid', 'invalid', 'unavailable'] as const;
export type ApiKeyCheck = (typeof API_KEY_CHECKS)[number];

/** PUT /api/admin/client-config/{id}. */
export const ClientConfigUpdateResponse = z.object({
  success: z.literal(true),
  client: ClientConfig,
  /** What happened to the API key: "unavailable" when the provider did not answer the check. */
  apiKeyCheck: z.enum(API_KEY_CHECKS),
  message: z.string(),
});
export type ClientConfigUpdateResponse = z.infer<typeof ClientConfigUpdateResponse>;

/** GET /api/admin/client-data/{clientId} (DESIGN §6 [14]). */
export const AdminClientData = z.object({ client: AdminClientListItem });
export type AdminClientData = z.infer<typeof AdminClientData>;

export const AdminStats = z.object({
  totalClients: z.number(),
  totalCalls: z.number(),
  /** Dollars. */
  totalRevenue: z.number(),
  activeClients: z.number(),
});
export type AdminStats = z.infer<typeof AdminStats>;

export const WebhookGenerated = z.object({ id: z.string(), webhookUrl: z.string() });
export type WebhookGenerated = z.infer<typeof WebhookGenerated>;

export const WebhookStatus = z.object({
  isTestSuccessful: z.boolean(),
  /** ISO 8601 of the first valid provider call, when one arrived. */
  verifiedAt: z.string().nullable(),
});
export type WebhookStatus = z.infer<typeof WebhookStatus>;

export const FinalizeResponse = z.object({ email: z.string() });
export type FinalizeResponse = z.infer<typeof FinalizeResponse>;

export const CredentialsResponse = z.object({ email: z.string(), temporaryPassword: z.string() });
export type CredentialsResponse = z.infer<typeof CredentialsResponse>;

export const RotatedWebhook = z.object({ webhookUrl: z.string() });

export const SyncAllFailure = z.object({ clientId: z.string(), name: z.string(), message: z.string() });
export type SyncAllFailure = z.infer<typeof SyncAllFailure>;

export const SyncAllResult = z.object({
  success: z.boolean(),
  /** Clients whose sync finished. */
  synced: z.number(),
  failed: z.number(),
  /** Active clients without an API key: nothing to sync. */
  skipped: z.number(),
  /** Calls created and updated across all clients. */
  created: z.number(),
  updated: z.number(),
  failures: z.array(SyncAllFailure),
  message: z.string(),
});
export type SyncAllResult = z.infer<typeof SyncAllResult>;

export function clientDisplayName(client: Pick<AdminClient, 'firstName' | 'lastName'>): string {
  return `${client.firstName} ${client.lastName}`.trim();
}

/** How lists name a client: its company, else the person. */
export function clientName(client: Pick<AdminClient, 'firstName' | 'lastName' | 'companyName'>): string {
  return client.companyName || clientDisplayName(client);
}

/** The same from a stored row (snake_case columns). */
export function clientNameOfRow(row: {
  company_name: string | null;
  first_name: string;
  last_name: string;
}): string {
  return clientName({ companyName: row.company_name, firstName: row.first_name, lastName: row.last_name });
}
