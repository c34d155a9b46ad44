/**
 * The privacy forms' state as typed, pure and tested: retention as the text of its
 * inputs (empty keeps), what a save sends (only what changed: PUT is a patch, and a retention the
 * agency limits must not be sent back as "keep"), who an erasure names, and the words of an
 * erasure's platform answers. Shared by Settings › Privacy, the admin's client view and the
 * agency's defaults.
 */

import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { formatCount } from '../../../contract/format';
import type { ErasureProviderResult } from '../../../contract/privacy';
import {
  MAX_RETENTION_DAYS,
  type NATIONAL_ID_COUNTRIES,
  REDACTION_CATEGORIES,
  type RedactionCategories,
  type Retention,
  type RetentionField,
} from '../../../contract/privacy';

export type NationalIdCountry = (typeof NATIONAL_ID_COUNTRIES)[number];
export const RETENTION_FIELDS = [
  'transcriptDays',
  'recordingDays',
  'callDays',
] as const satisfies readonly RetentionField[];

/** What the redaction and retention parts of a form hold. */
export interface PrivacyDraft {
  redaction: RedactionCategories;
  nationalIdCountries: NationalIdCountry[];
  /** The inputs' text: '' keeps (null). */
  retention: Record<RetentionField, string>;
  /** A client's "Keep the caller's own number"; absent for the agency's defaults. */
  keepCallerNumber?: boolean;
}

/** What a save may change; each part only when it changed. */
export interface PrivacyDraftChanges {
  redaction?: Partial<RedactionCategories>;
  nationalIdCountries?: NationalIdCountry[];
  retention?: Partial<Retention>;
  keepCallerNumber?: boolean;
}

export function draftOf(saved: {
  redaction: RedactionCategories;
  nationalIdCountries: readonly NationalIdCountry[];
  retention: Retention;
  keepCallerNumber?: boolean;
}): PrivacyDraft {
  return {
    ...(saved.keepCallerNumber === undefined ? {} : { keepCallerNumber: saved.keepCallerNumber }),
    redaction: { ...saved.redaction },
    nationalIdCountries: [...saved.nationalIdCountries],
    retention: {
      transcriptDays: daysText(saved.retention.transcriptDays),
      recordingDays: daysText(saved.retention.recordingDays),
      callDays: daysText(saved.retention.callDays),
    },
  };
}

const daysText = (days: number | null) => (days === null ? '' : String(days));

export const RETENTION_FORMAT_PROBLEM = `Enter a whole number of days from 1 to ${formatCount(MAX_RETENTION_DAYS)}, or leave it empty`;

/**
 * The inputs as days: '' is null (keep); anything but a whole number from 1 to the maximum is a
 * problem named by its field. Whether the agency allows it is the server's to say.
 */
export function parseRetention(inputs: Record<RetentionField, string>): {
  retention: Retention;
  problems: Partial<Record<RetentionField, string>>;
} {
  const retention: Retention = { transcriptDays: null, recordingDays: null, callDays: null };
  const problems: Partial<Record<RetentionField, string>> = {};
  for (const field of RETENTION_FIELDS) {
    const text = inputs[field].trim().replace(/[,\s]/g, '');
    if (text === '') continue;
    const days = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(days >= 1 && days <= MAX_RETENTION_DAYS)) problems[field] = RETENTION_FORMAT_PROBLEM;
    else retention[field] = days;
  }
  return { retention, problems };
}

/** What differs from the saved settings; null when nothing does. The retention must parse. */
export function changesOf(
  saved: {
    redaction: RedactionCategories;
    nationalIdCountries: readonly NationalIdCountry[];
    retention: Retention;
    keepCallerNumber?: boolean;
  },
  draft: {
    redaction: RedactionCategories;
    nationalIdCountries: readonly NationalIdCountry[];
    retention: Retention;
    keepCallerNumber?: boolean;
  },
): PrivacyDraftChanges | null {
  const changes: PrivacyDraftChanges = {};
  const redaction: Partial<RedactionCategories> = {};
  for (const category of REDACTION_CATEGORIES)
    if (draft.redaction[category] !== saved.redaction[category])
      redaction[category] = draft.redaction[category];
  if (Object.keys(redaction).length > 0) changes.redaction = redaction;
  const countries = [...draft.nationalIdCountries].sort();
  if (countries.join() !== [...saved.nationalIdCountries].sort().join())
    changes.nationalIdCountries = countries;
  const retention: Partial<Retention> = {};
  for (const field of RETENTION_FIELDS)
    if (draft.retention[field] !== saved.retention[field]) retention[field] = draft.retention[field];
  if (Object.keys(retention).length > 0) changes.retention = retention;
  if (draft.keepCallerNumber !== undefined && draft.keepCallerNumber !== saved.keepCallerNumber)
    changes.keepCallerNumber = draft.keepCallerNumber;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** Which categories a save turns on (stored calls are then redacted again). */
export function turnedOn(changes: PrivacyDraftChanges | null): boolean {
  return (
    Object.values(changes?.redaction ?? {}).some(Boolean) ||
    (changes?.nationalIdCountries?.length ?? 0) > 0 ||
    changes?.keepCallerNumber === false
  );
}

/** A 400's fields as the form's: `retention.callDays` → callDays; the rest under '_'. */
export function retentionErrorsOf(
  fields: Record<string, string>,
): Partial<Record<RetentionField | '_', string>> {
  const out: Partial<Record<RetentionField | '_', string>> = {};
  for (const [path, message] of Object.entries(fields)) {
    const field = path.replace(/^retention\./, '');
    // includes takes only RetentionField; `field` is any string until it passes
    if ((RETENTION_FIELDS as readonly string[]).includes(field)) out[field as RetentionField] = message;
    else out._ ??= message;
  }
  return out;
}

/** Under a retention input: what empty means, and the agency's limit when there is one. */
export function retentionHint(limit: number | null | undefined, forClient: boolean): string {
  if (!forClient) return 'The longest any client keeps it. Empty: no limit.';
  if (limit === null || limit === undefined) return 'Empty: kept.';
  return `At most ${formatCount(limit)} days: your agency’s limit.`;
}

// ---- erasure and export ----------------------------------------------------------------------------

/** The caller an erasure names: an e-mail address (it has an @) or a phone number in any form. */
export function erasureSubjectOf(input: string): { phone: string } | { email: string } | { problem: string } {
  const value = input.trim();
  if (!value) return { problem: 'Enter the caller’s phone number or e-mail address' };
  if (value.includes('@')) {
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
      ? { email: value.toLowerCase() }
      : { problem: 'Enter a valid e-mail address' };
  }
  return /\d/.test(value) ? { phone: value } : { problem: 'Enter a phone number or an e-mail address' };
}

/**
 * A phone number as the erasure will read it: the server normalises to E.164 with the US as the
 * default country, so "(212) 555-0199" is +1 212 555 0199. Anything it cannot read stays as typed.
 */
export function readablePhone(input: string): string {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  return parsed?.isPossible() ? parsed.formatInternational() : input.trim();
}

/** The name a download gets: the server's Content-Disposition filename, else the fallback. */
export function attachmentFileName(header: string | null, fallback: string): string {
  const match = header?.match(/filename="?([^";]+)"?/i);
  return match?.[1]?.trim() || fallback;
}

const calls = (n: number) => `${formatCount(n)} ${n === 1 ? 'call' : 'calls'}`;

/** One platform's answer in words: what it deleted, what failed, what it cannot delete. */
export function providerAnswer(result: ErasureProviderResult, showPlatform = true): string {
  // A client the agency does not name its supplier to reads "the call service" instead.
  const name = showPlatform ? result.name : 'The call service';
  const parts: string[] = [];
  if (result.deleted > 0) parts.push(`${calls(result.deleted)} deleted there`);
  if (result.failed > 0) parts.push(`${calls(result.failed)} could not be deleted (the receipt lists them)`);
  if (result.unsupported > 0)
    parts.push(
      `${calls(result.unsupported)} kept there: ${showPlatform ? result.name : 'it'} has no way to delete a call`,
    );
  if (parts.length === 0) parts.push('nothing to delete there');
  return `${name}: ${parts.join('; ')}`;
}

/** "2 calls and 5 stored copies removed" (delivery log entries, messages, live events). */
export function erasureTotals(erasure: { calls: number; copies: number }): string {
  const copies = `${formatCount(erasure.copies)} stored ${erasure.copies === 1 ? 'copy' : 'copies'}`;
  return `${calls(erasure.calls)} and ${copies} removed`;
}
