/**
 * Per-user notification choices, stored on `client_users` (025): `notify_email`,
 * `notify_sms` (1 on, 0 off, null: the account's switch) and the user's own `sms_number`. This
 * module reads and writes those columns and lists who of a client may be notified; what each
 * alert kind requires and where it goes is notifications/recipients.ts.
 */
import type { Kysely } from 'kysely';
import { type MyNotificationsBody, storedChoice } from '../../contract/notification-choices';
import type { Permission } from '../../contract/teams';
import type { ClientUserRow, Database } from '../db/schema';
import { permissionsOf } from './permissions';

export type ChoiceColumns = Pick<ClientUserRow, 'notify_email' | 'notify_sms' | 'sms_number'>;

export async function readChoices(
  db: Kysely<Database>,
  clientId: string,
  userId: string,
): Promise<(ChoiceColumns & Pick<ClientUserRow, 'is_account_login' | 'role' | 'permissions'>) | undefined> {
  return db
    .selectFrom('client_users')
    .select(['notify_email', 'notify_sms', 'sms_number', 'is_account_login', 'role', 'permissions'])
    .where('client_id', '=', clientId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Saves what the body holds (a patch); the client id keeps a user to their own client's row. */
export async function saveChoices(
  db: Kysely<Database>,
  clientId: string,
  userId: string,
  body: MyNotificationsBody,
  now: number,
): Promise<void> {
  const changes: Partial<ChoiceColumns> = {};
  if (body.email !== undefined) changes.notify_email = storedChoice(body.email);
  if (body.sms !== undefined) changes.notify_sms = storedChoice(body.sms);
  if (body.smsNumber !== undefined) changes.sms_number = body.smsNumber;
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('client_users')
    .set({ ...changes, updated_at: now })
    .where('client_id', '=', clientId)
    .where('id', '=', userId)
    .execute();
}

/** A person who may be notified: an active user, with what they chose and what they hold. */
export interface UserRecipient {
  userId: string;
  isAccountLogin: boolean;
  email: string;
  smsNumber: string | null;
  notifyEmail: number | null;
  notifySms: number | null;
  permissions: Permission[];
}

/**
 * The active users of several clients (one query). A client absent from the map has no users at
 * all (created before teams, or by a factory, and never signed in since): its own login is then
 * the one recipient, as before teams. A client whose users are all inactive maps to [].
 */
export async function listRecipientUsers(
  db: Kysely<Database>,
  clientIds: string[],
): Promise<Map<string, UserRecipient[]>> {
  const byClient = new Map<string, UserRecipient[]>();
  if (clientIds.length === 0) return byClient;
  const rows = await db
    .selectFrom('client_users')
    .select([
      'id',
      'client_id',
      'email',
      'role',
      'permissions',
      'status',
      'is_account_login',
      'notify_email',
      'notify_sms',
      'sms_number',
      'created_at',
    ])
    .where('client_id', 'in', [...new Set(clientIds)])
    // The account login first: its messages keep the keys they had before teams.
    .orderBy('is_account_login', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byClient.get(row.client_id) ?? [];
    byClient.set(row.client_id, list);
    if (row.status !== 'active') continue;
    list.push({
      userId: row.id,
      isAccountLogin: row.is_account_login === 1,
      email: row.email,
      smsNumber: row.sms_number,
      notifyEmail: row.notify_email,
      notifySms: row.notify_sms,
      permissions: permissionsOf(row),
    });
  }
  return byClient;
}
