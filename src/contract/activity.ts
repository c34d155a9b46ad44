/**
 * The client's activity log as its Owners read it: GET /api/client/activity and its
 * CSV. The action names are the ones the server writes (activity/record.ts); the labels are what
 * the browser and the CSV show.
 */
import { z } from 'zod';
import { PAGE_SIZE, Pagination } from './common';

export const ACTIVITY_ACTION_LABELS = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  invite: 'Invited a person',
  invite_resent: 'Resent an invitation',
  invite_revoked: 'Revoked an invitation',
  invite_accepted: 'Accepted an invitation',
  role_change: 'Changed a role or permissions',
  user_deactivated: 'Deactivated a person',
  user_activated: 'Reactivated a person',
  user_removed: 'Removed a person',
  two_factor_enabled: 'Turned on two-factor sign-in',
  two_factor_disabled: 'Turned off two-factor sign-in',
  two_factor_reset: 'Two-factor sign-in reset by the agency',
  recovery_code_used: 'Used a recovery code',
  session_ended: 'Ended a session',
  export: 'Exported',
  recording_play: 'Played a recording',
  recording_download: 'Downloaded a recording',
  unmask: 'Showed a caller’s number',
  number_search: 'Searched calls by phone number',
  settings_change: 'Changed settings',
  key_change: 'Changed a key or secret',
  password_change: 'Changed their password',
  view_as_client: 'Agency viewed the dashboard',
  caller_erased: 'Erased a caller’s data',
  subject_export: 'Exported a caller’s data',
} as const;
export type ActivityActionName = keyof typeof ACTIVITY_ACTION_LABELS;
// Object.keys answers string[]; these are the label table's keys, and it has at least one (z.enum's tuple).
export const ACTIVITY_ACTIONS = Object.keys(ACTIVITY_ACTION_LABELS) as [
  ActivityActionName,
  ...ActivityActionName[],
];

/** The log's filters, shared by its page and its CSV. */
const activityFilterFields = {
  /** One person's lines (a user id of this client; another's finds nothing). */
  userId: z.string().trim().min(1).max(100).optional(),
  action: z.enum(ACTIVITY_ACTIONS).optional(),
};

const wholeNumber = (max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `Number must be between 1 and ${max}`)
    .optional()
    .transform((n) => n ?? fallback);

export const ACTIVITY_PAGE_SIZE = 2 * PAGE_SIZE;

export const ActivityQuery = z.object({
  ...activityFilterFields,
  page: wholeNumber(100_000, 1),
  limit: wholeNumber(100, ACTIVITY_PAGE_SIZE),
});
export type ActivityQuery = z.output<typeof ActivityQuery>;

/** The CSV takes the log's filters; `format` may say csv, the only format it has. */
export const ActivityExportQuery = z.object({ ...activityFilterFields, format: z.enum(['csv']).optional() });
export type ActivityExportQuery = z.output<typeof ActivityExportQuery>;

export const ActivityItem = z.object({
  at: z.string(),
  /** Who did it; null when nobody was signed in (an agency admin's view, an unknown person). */
  userId: z.string().nullable(),
  /** The user's name now, or the name the line kept when the user was removed; null: nobody. */
  userName: z.string().nullable(),
  action: z.enum(ACTIVITY_ACTIONS),
  /** What the line records beyond who and what (names, e-mails, before and after), or null. */
  detail: z.record(z.unknown()).nullable(),
});
export type ActivityItem = z.infer<typeof ActivityItem>;

export const ActivityPage = z.object({ items: z.array(ActivityItem), pagination: Pagination });
export type ActivityPage = z.infer<typeof ActivityPage>;
