/** The notification_prefs table: one row per client, written on first save; defaults until then. */
import type { Kysely } from 'kysely';
import { DEFAULT_NOTIFICATION_PREFS, type NotificationPrefs } from '../../contract/account';
import type { Database } from '../db/schema';

export async function readNotificationPrefs(
  db: Kysely<Database>,
  clientId: string,
): Promise<NotificationPrefs> {
  const row = await db
    .selectFrom('notification_prefs')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_NOTIFICATION_PREFS };
  return {
    emailNotifications: row.email_notifications === 1,
    smsNotifications: row.sms_notifications === 1,
    webhookNotifications: row.webhook_notifications === 1,
    monthlyReports: row.monthly_reports === 1,
  };
}

export async function saveNotificationPrefs(
  db: Kysely<Database>,
  clientId: string,
  prefs: NotificationPrefs,
  now: number,
): Promise<void> {
  const values = {
    email_notifications: prefs.emailNotifications ? 1 : 0,
    sms_notifications: prefs.smsNotifications ? 1 : 0,
    webhook_notifications: prefs.webhookNotifications ? 1 : 0,
    monthly_reports: prefs.monthlyReports ? 1 : 0,
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
): Promise<Map<string, NotificationPrefs>> {
  const prefs = new Map<string, NotificationPrefs>(
    clientIds.map((id) => [id, { ...DEFAULT_NOTIFICATION_PREFS }]),
  );
  if (clientIds.length === 0) return prefs;
  const rows = await db
    .selectFrom('notification_prefs')
    .selectAll()
    .where('client_id', 'in', [...new Set(clientIds)])
    .execute();
  for (const row of rows)
    prefs.set(row.client_id, {
      emailNotifications: row.email_notifications === 1,
      smsNotifications: row.sms_notifications === 1,
      webhookNotifications: row.webhook_notifications === 1,
      monthlyReports: row.monthly_reports === 1,
    });
  return prefs;
}
