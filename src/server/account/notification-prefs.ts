/**
 * The notification_prefs table: one row per client, written on first save; defaults until then.
 * The webhook URL shown with them lives in client_webhooks (notifications/client-webhooks.ts).
 */
import type { Kysely, Selectable } from 'kysely';
import {
  DEFAULT_NOTIFICATION_PREFS,
  type DigestFrequency,
  type NotificationPrefs,
  type NotificationPrefsBody,
} from '../../contract/account';
import type { Database, NotificationPrefsTable } from '../db/schema';

/** The stored preferences (everything but the webhook URL). */
export type StoredNotificationPrefs = Omit<NotificationPrefs, 'webhookUrl'>;

function fromRow(row: Selectable<NotificationPrefsTable>): StoredNotificationPrefs {
  return {
    emailNotifications: row.email_notifications === 1,
    smsNotifications: row.sms_notifications === 1,
    webhookNotifications: row.webhook_notifications === 1,
    monthlyReports: row.monthly_reports === 1,
    digest: row.digest as DigestFrequency,
    quietHours: { start: Number(row.quiet_start), end: Number(row.quiet_end) },
  };
}

export async function readNotificationPrefs(
  db: Kysely<Database>,
  clientId: string,
): Promise<StoredNotificationPrefs> {
  const row = await db
    .selectFrom('notification_prefs')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? fromRow(row) : structuredClone(DEFAULT_NOTIFICATION_PREFS);
}

/** Saves the switches, and the digest and quiet hours when given (an older client sends only the switches). */
export async function saveNotificationPrefs(
  db: Kysely<Database>,
  clientId: string,
  prefs: NotificationPrefsBody,
  now: number,
): Promise<void> {
  const values = {
    email_notifications: prefs.emailNotifications ? 1 : 0,
    sms_notifications: prefs.smsNotifications ? 1 : 0,
    webhook_notifications: prefs.webhookNotifications ? 1 : 0,
    monthly_reports: prefs.monthlyReports ? 1 : 0,
    ...(prefs.digest ? { digest: prefs.digest } : {}),
    ...(prefs.quietHours ? { quiet_start: prefs.quietHours.start, quiet_end: prefs.quietHours.end } : {}),
    updated_at: now,
  };
  await db
    .insertInto('notification_prefs')
    .values({ client_id: clientId, ...values })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
    .execute();
}

/** Preferences of several clients at once (one query), defaults for those that never saved. */
export async function readNotificationPrefsOf(
  db: Kysely<Database>,
  clientIds: string[],
): Promise<Map<string, StoredNotificationPrefs>> {
  const prefs = new Map<string, StoredNotificationPrefs>(
    clientIds.map((id) => [id, structuredClone(DEFAULT_NOTIFICATION_PREFS)]),
  );
  if (clientIds.length === 0) return prefs;
  const rows = await db
    .selectFrom('notification_prefs')
    .selectAll()
    .where('client_id', 'in', [...new Set(clientIds)])
    .execute();
  for (const row of rows) prefs.set(row.client_id, fromRow(row));
  return prefs;
}
