/**
 * The client's activity log (issue 36): what its people did, one line each, written in the
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
  | 'user_removed';

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
