/**
 * The client's privacy settings: GET/PUT /api/client/privacy (Owners: permission `privacy`),
 * the admin's the same under /api/admin/client-privacy/{clientId}, the agency's defaults at
 * /api/admin/privacy-defaults; callers' erasure and subject export, and the answer of
 * POST /api/client/calls/{id}/unmask, one call's numbers in full.
 */
import { z } from 'zod';

/** What the redaction on arrival replaces (server/privacy/redaction/); cards are on by default. */
export const RedactionCategories = z
  .object({
    cards: z.boolean(),
    nationalIds: z.boolean(),
    emails: z.boolean(),
    phones: z.boolean(),
    dates: z.boolean(),
    addresses: z.boolean(),
  })
  .strict();
export type RedactionCategories = z.infer<typeof RedactionCategories>;
export type RedactionCategory = keyof RedactionCategories;
export const REDACTION_CATEGORIES = RedactionCategories.keyof().options;

export const DEFAULT_REDACTION: RedactionCategories = {
  cards: true,
  nationalIds: false,
  emails: false,
  phones: false,
  dates: false,
  addresses: false,
};

/** Countries whose national ID formats can be looked for beyond the US and UK (always). */
export const NATIONAL_ID_COUNTRIES = ['CA'] as const;

/** Ten years: longer than any retention a business sets, short enough to stay a date. */
export const MAX_RETENTION_DAYS = 3650;
const Days = z.number().int().min(1).max(MAX_RETENTION_DAYS).nullable();

/** Days personal data is kept; null keeps it (or, for a client, as long as the agency allows). */
export const Retention = z.object({ transcriptDays: Days, recordingDays: Days, callDays: Days }).strict();
export type Retention = z.infer<typeof Retention>;
export type RetentionField = keyof Retention;
export const KEEP_FOREVER: Retention = { transcriptDays: null, recordingDays: null, callDays: null };

/** Where re-redacting the client's stored calls after a category was turned on stands. */
export const ReRedaction = z.object({
  state: z.enum(['idle', 'running', 'done']),
  done: z.number(),
  total: z.number(),
});
export type ReRedaction = z.infer<typeof ReRedaction>;

const NationalIdCountries = z.array(z.enum(NATIONAL_ID_COUNTRIES)).max(NATIONAL_ID_COUNTRIES.length);

/**
 * `hideNumbersUntilShown`: callers' numbers are masked for everyone until "Show
 * number" (one call). `retention` is what applies: the client's own, never longer than the
 * agency's; `agencyRetention` is the agency's limit.
 */
export const PrivacySettings = z.object({
  hideNumbersUntilShown: z.boolean(),
  redaction: RedactionCategories,
  nationalIdCountries: NationalIdCountries,
  retention: Retention,
  agencyRetention: Retention,
  /**
   * With phone numbers redacted: the call's own from/to numbers stay readable where the caller
   * says them ("call me back on this number"), every other number is redacted. On by default.
   */
  keepCallerNumber: z.boolean(),
  reRedaction: ReRedaction,
});
export type PrivacySettings = z.infer<typeof PrivacySettings>;

/** What a client and the agency's defaults both set, each part a patch. */
const sharedPatch = {
  redaction: RedactionCategories.partial().strict(),
  nationalIdCountries: NationalIdCountries,
  retention: Retention.partial().strict(),
};
const atLeastOne = (body: object) => Object.keys(body).length > 0;
const AT_LEAST_ONE = { message: 'Send at least one privacy setting' };

/** PUT /api/client/privacy (and the admin's per client): the settings to change; the answer is all of them. */
export const PrivacyUpdate = z
  .object({ hideNumbersUntilShown: z.boolean(), keepCallerNumber: z.boolean(), ...sharedPatch })
  .partial()
  .strict()
  .refine(atLeastOne, AT_LEAST_ONE);
export type PrivacyUpdate = z.infer<typeof PrivacyUpdate>;

/** The agency's defaults: what a client follows until it saves its own, and the longest retention. */
export const PrivacyDefaults = z.object({
  redaction: RedactionCategories,
  nationalIdCountries: NationalIdCountries,
  retention: Retention,
});
export type PrivacyDefaults = z.infer<typeof PrivacyDefaults>;

export const PrivacyDefaultsUpdate = z
  .object(sharedPatch)
  .partial()
  .strict()
  .refine(atLeastOne, AT_LEAST_ONE);
export type PrivacyDefaultsUpdate = z.infer<typeof PrivacyDefaultsUpdate>;

/** One call's numbers in full, as the call's own fields name them. */
export const UnmaskedNumbers = z.object({ id: z.string(), fromNumber: z.string(), toNumber: z.string() });
export type UnmaskedNumbers = z.infer<typeof UnmaskedNumbers>;

// ---- erasure by caller and subject export -------------------------------------------------------

/** POST /api/client/erasure: a phone number (any written form) or an e-mail address, one of them. */
export const ErasureRequestBody = z
  .object({
    phone: z.string().trim().min(1).max(40).optional(),
    email: z.string().trim().toLowerCase().email().max(254).optional(),
  })
  .strict()
  .refine((b) => (b.phone === undefined) !== (b.email === undefined), {
    message: 'Send a phone number or an e-mail address (one of them)',
  });
export type ErasureRequestBody = z.infer<typeof ErasureRequestBody>;

export const ErasureAccepted = z.object({ id: z.string() });

/**
 * POST /api/client/erasure/preview (same body): what the erasure would remove, shown before it is
 * confirmed: how many calls, and the newest few (time, masked caller, a line around the subject).
 */
export const ErasurePreview = z.object({
  count: z.number(),
  sample: z.array(
    z.object({
      id: z.string(),
      createdAt: z.number(),
      caller: z.string(),
      excerpt: z.string().nullable(),
    }),
  ),
});
export type ErasurePreview = z.infer<typeof ErasurePreview>;

/** What one provider answered to the deletes asked of it. */
export const ErasureProviderResult = z.object({
  provider: z.string(),
  /** The provider's own name for people ("Vapi"). */
  name: z.string(),
  deleted: z.number(),
  failed: z.number(),
  /** Calls on a platform with no delete API (Bland): the receipt says so. */
  unsupported: z.number(),
});
export type ErasureProviderResult = z.infer<typeof ErasureProviderResult>;

export const ErasureState = z.enum(['running', 'done', 'failed']);

/** GET /api/client/erasure/{id}: where it stands, and (when done) the receipt's address. */
export const ErasureStatus = z.object({
  id: z.string(),
  state: ErasureState,
  subject: z.object({ kind: z.enum(['phone', 'email']), value: z.string() }),
  requestedBy: z.string(),
  requestedAt: z.number(),
  finishedAt: z.number().nullable(),
  calls: z.number(),
  copies: z.number(),
  providers: z.array(ErasureProviderResult),
  /** The caller's confirmation (PDF; `?format=json`: the record as JSON), once done. */
  receiptUrl: z.string().nullable(),
  /** The internal report for the business and the agency (PDF), once done. */
  reportUrl: z.string().nullable(),
});
export type ErasureStatus = z.infer<typeof ErasureStatus>;

export const ErasureList = z.object({ erasures: z.array(ErasureStatus) });
export type ErasureList = z.infer<typeof ErasureList>;

export const ErasureParams = z.object({ id: z.string().uuid() });
export const ReceiptQuery = z.object({ format: z.enum(['pdf', 'json']).default('pdf') }).strict();

/** POST /api/client/subject-export: every call of that number, as a download. */
export const SubjectExportBody = z.object({ phone: z.string().trim().min(1).max(40) }).strict();
/** The download's form: the whole record as JSON (the default), a CSV row per call, or a readable PDF. */
export const SUBJECT_EXPORT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type SubjectExportFormat = (typeof SUBJECT_EXPORT_FORMATS)[number];
export const SubjectExportQuery = z
  .object({ format: z.enum(SUBJECT_EXPORT_FORMATS).default('json') })
  .strict();

export const PRIVACY_TEXTS = {
  card: 'Privacy',
  hideNumbersLabel: 'Hide callers’ numbers until shown',
  hideNumbersHelp:
    'When on, everyone sees callers’ numbers masked (+1 212 ••• 0100). People allowed to see full numbers click “Show number” on a call, and each time it is recorded in the activity log.',
  showNumber: 'Show number',
  redactionHeading: 'Redact on arrival',
  redactionHelp:
    'What callers say is checked before anything is stored. The kinds you choose are replaced by a label in transcripts, summaries, stored payloads, search, exports, e-mails and webhooks.',
  categories: {
    cards: 'Payment card numbers, expiry dates and security codes',
    nationalIds: 'National ID numbers (US SSN, UK National Insurance)',
    emails: 'E-mail addresses',
    phones: 'Phone numbers said during the call',
    dates: 'Dates of birth',
    addresses: 'Street addresses',
  } satisfies Record<RedactionCategory, string>,
  countries: { CA: 'Also Canadian Social Insurance Numbers' } satisfies Record<
    (typeof NATIONAL_ID_COUNTRIES)[number],
    string
  >,
  phonesWarning:
    'Call-back numbers callers give are replaced by [PHONE] in transcripts and summaries, so your team cannot read them there.',
  keepCallerNumberLabel: 'Keep the caller’s own number',
  keepCallerNumberHelp:
    'The number the call came from stays readable where the caller says it; any other number is still redacted.',
  reRedactionRunning: 'Redacting stored calls',
  retentionHeading: 'Keep personal data',
  retentionHelp:
    'After the time you set, it is removed. Totals, charts, usage and invoices keep their numbers.',
  retentionFields: {
    transcriptDays: 'Transcripts and summaries',
    recordingDays: 'Recordings',
    callDays: 'Whole calls',
  } satisfies Record<RetentionField, string>,
  keepForever: 'Keep',
  erasureHeading: 'Erase a caller',
  erasureHelp:
    'Removes every call from or to a phone number or e-mail address, here and, where the platform allows, at the voice platform, and gives you a receipt to send to the caller.',
  erasureConfirm: 'Erase',
  exportHeading: 'Export a caller’s data',
  transcriptRemoved: 'The transcript was removed after the time this account keeps transcripts.',
  recordingRemoved: 'The recording was removed after the time this account keeps recordings.',
} as const;

/** The labels redaction leaves in text; the transcript view shows them as chips. */
export const REDACTION_LABELS = [
  'CARD',
  'EXPIRY',
  'CVC',
  'SSN',
  'NI',
  'NATIONAL_ID',
  'EMAIL',
  'PHONE',
  'DOB',
  'ADDRESS',
] as const;
export const REDACTION_LABEL_RE = new RegExp(`\\[(${REDACTION_LABELS.join('|')})\\]`, 'g');
