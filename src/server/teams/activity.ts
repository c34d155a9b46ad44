/**
 * The client's activity log: what its people did, one line each, written in the
 * transaction of what it records. Written now: sign_in, sign_in_failed, invite, invite_resent,
 * invite_revoked, invite_accepted, role_change, user_deactivated, user_activated, user_removed.
 * Read later by GET /api/client/activity (Owners only). The agency's audit log (audit/) is the
 * admins' and stays separate.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type ActivityAction =
  | 'sign_in'
  | 'sign_in_failed'
  | 'invite'
  | 'invite_resent'
  | 'invite_revoked'
  | 'invite_accepted'
  | 'role_change'
  | 'user_deactivated'
  | 'user_activated'
  | 'user_removed'
  // Two-factor sign-in: turned on, off, reset by the agency, a recovery code spent.
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'two_factor_reset'
  | 'recovery_code_used'
  // Sessions ended by their user (one, or all the others).
  | 'session_ended'
  // Reading callers' data: a file exported, a recording played or downloaded, a number shown.
  | 'export'
  | 'recording_play'
  | 'recording_download'
  | 'unmask'
  // A search by phone number of someone who sees numbers masked (detail: the number, masked).
  | 'number_search'
  // Settings: the profile, notifications, outcomes, privacy; keys and secrets; a password.
  | 'settings_change'
  | 'key_change'
  | 'password_change'
  // An agency administrator opened this client's dashboard (detail: which admin).
  | 'view_as_client'
  // A caller's data erased, or exported for the caller (detail: the request's id).
  | 'caller_erased'
  | 'subject_export';

export interface ActivityEntry {
  clientId: string;
  /** Who did it (null: nobody signed in, e.g. a failed sign-in of an unknown person). */
  userId: string | null;
  action: ActivityAction;
  /** What the line needs to be read without the user row: names, e-mails, before and after. */
  detail?: Record<string, unknown>;
}

export async function recordActivity(db: Kysely<Database>, entry: ActivityEntry, now: number): Promise<void> {
  await db
    .insertInto('client_activity')
    .values({
      id: randomUUID(),
      client_id: entry.clientId,
      at: now,
      user_id: entry.userId,
      action: entry.action,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}
