/**
 * The one activity and audit log: every line anyone's action leaves, written here and nowhere
 * else, in the transaction of what it records where there is one (a rolled-back change leaves no
 * line). Two audiences, two tables:
 * - the agency's audit log (`audit_log`, DESIGN §5): what an admin did to which client, read on
 *   the admin audit page (clients/clients-joined.ts joins the names);
 * - a client's activity log (`client_activity`): what its people did, and an agency admin's view
 *   of its dashboard, read by GET /api/client/activity (Owners only) through ./read.ts.
 * Details are short JSON facts (counts, changed field names, names), never secrets. This module
 * sits below the features: it imports only db/ and the contract.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditAction } from '../../contract/agency';
import type { AdminRow, ClientUserRow, Database } from '../db/schema';

export type { AuditAction };

export interface AuditEntry {
  adminId: string;
  action: AuditAction;
  clientId?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry, now: number): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      admin_id: entry.adminId,
      action: entry.action,
      client_id: entry.clientId ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      created_at: now,
    })
    .execute();
}

/**
 * An admin's reads of a client's data are folded: one row per admin, client, action and half
 * hour, since the views reload their data often. A folded row counts the reads and keeps the
 * first calls opened, so "who read which transcript" stays answerable without a row per click.
 */
export const READ_AUDIT_QUIET_MS = 30 * 60 * 1000;
const KEPT_CALL_IDS = 20;

export type ReadAction = Extract<AuditAction, 'client.view' | 'client.read_calls' | 'call.read'>;

export async function recordClientRead(
  db: Kysely<Database>,
  read: { adminId: string; clientId: string; action: ReadAction; callId?: string },
  now: number,
): Promise<void> {
  const recent = await db
    .selectFrom('audit_log')
    .select(['id', 'detail'])
    .where('admin_id', '=', read.adminId)
    .where('client_id', '=', read.clientId)
    .where('action', '=', read.action)
    .where('created_at', '>', now - READ_AUDIT_QUIET_MS)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!recent) {
    const detail = read.callId ? { reads: 1, callIds: [read.callId] } : { reads: 1 };
    await recordAudit(db, { ...read, detail }, now);
    return;
  }
  const folded = foldRead(recent.detail, read.callId);
  await db
    .updateTable('audit_log')
    .set({ detail: JSON.stringify(folded) })
    .where('id', '=', recent.id)
    .execute();
}

function foldRead(detail: string | null, callId: string | undefined): { reads: number; callIds?: string[] } {
  let previous: { reads?: unknown; callIds?: unknown } = {};
  try {
    // JSON.parse returns any; both fields stay unknown and are checked below
    previous = detail ? (JSON.parse(detail) as typeof previous) : {};
  } catch {
    // A row written before reads were counted: start counting from it.
  }
  const reads = (typeof previous.reads === 'number' ? previous.reads : 1) + 1;
  const callIds = Array.isArray(previous.callIds)
    ? previous.callIds.filter((id) => typeof id === 'string')
    : [];
  if (callId && !callIds.includes(callId) && callIds.length < KEPT_CALL_IDS) callIds.push(callId);
  return callIds.length > 0 ? { reads, callIds } : { reads };
}

// The client's activity log.

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

/** A line of a client's activity log. */
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

/**
 * The activity line of a change the signed-in person made to the account:
 * `settings_change` (profile, notifications, outcomes, the webhook endpoint), `key_change` (the
 * voice API key, a signing secret), `password_change`. Pass the transaction of the change where
 * the route has one. Screen preferences are not recorded: they change nothing anyone else sees.
 */
export type ChangeAction = 'settings_change' | 'key_change' | 'password_change';

export async function recordChange(
  db: Kysely<Database>,
  user: Pick<ClientUserRow, 'id' | 'client_id'>,
  action: ChangeAction,
  detail: Record<string, unknown>,
  now: number,
): Promise<void> {
  await recordActivity(db, { clientId: user.client_id, userId: user.id, action, detail }, now);
}

/**
 * The `view_as_client` line of a client's activity log: an agency admin opened the
 * client's dashboard. A dashboard asks many things at once and again as it refreshes, so one visit
 * is one line: an admin's next line for the same client comes at most every VIEW_QUIET_MS.
 */
export const VIEW_QUIET_MS = 30 * 60 * 1000;

export async function recordViewAsClient(
  db: Kysely<Database>,
  admin: Pick<AdminRow, 'id' | 'name' | 'username'>,
  clientId: string,
  now: number,
): Promise<void> {
  const recent = await db
    .selectFrom('client_activity')
    .select('detail')
    .where('client_id', '=', clientId)
    .where('action', '=', 'view_as_client')
    .where('at', '>', now - VIEW_QUIET_MS)
    .execute();
  const adminIdOf = (detail: string | null) => {
    try {
      // JSON.parse returns any; adminId stays unknown for the caller to check
      return (JSON.parse(detail ?? '{}') as { adminId?: unknown }).adminId;
    } catch {
      return undefined;
    }
  };
  if (recent.some((line) => adminIdOf(line.detail) === admin.id)) return;
  await recordActivity(
    db,
    {
      clientId,
      userId: null,
      action: 'view_as_client',
      detail: { adminId: admin.id, adminName: admin.name, adminUsername: admin.username },
    },
    now,
  );
}
