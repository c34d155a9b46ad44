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
import { sentOnly } from '../clients/client-patch';
import type { Database, NotificationPrefsTable } from '../db/schema';

/** The stored preferences (everything but the webhook URL). */
export type StoredNotificationPrefs = Omit<NotificationPrefs, 'webhookUrl'>;

function fromRow(row: Selectable<NotificationPrefsTable>): StoredNotificationPrefs {
  return {
    emailNotifications: row.email_notifications === 1,
    smsNotifications: row.sms_notifications === 1,
    webhookNotifications: row.webhook_notifications === 1,
    monthlyReports: row.monthly_reports === 1,
    // The column is plain text; only a DigestFrequency is ever written to it
    digest: row.digest as DigestFrequency,
    quietHours: { start: Number(row.quiet_start), end: Number(row.quiet_end) },
    alertWindowMinutes:
      row.alert_window_minutes == null
        ? DEFAULT_NOTIFICATION_PREFS.alertWindowMinutes
        : Number(row.alert_window_minutes),
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

/**
 * Saves what the body holds, a patch: a setting left out keeps its stored value, or
 * the default on a first save. Only the columns sent are updated, so two saves of different
 * settings at once both hold.
 */
export async function saveNotificationPrefs(
  db: Kysely<Database>,
  clientId: string,
  prefs: NotificationPrefsBody,
  now: number,
): Promise<void> {
  const flag = (on: boolean | undefined) => (on === undefined ? undefined : on ? 1 : 0);
  const sent = sentOnly({
    email_notifications: flag(prefs.emailNotifications),
    sms_notifications: flag(prefs.smsNotifications),
    webhook_notifications: flag(prefs.webhookNotifications),
    monthly_reports: flag(prefs.monthlyReports),
    digest: prefs.digest,
    quiet_start: prefs.quietHours?.start,
    quiet_end: prefs.quietHours?.end,
    alert_window_minutes: prefs.alertWindowMinutes,
    updated_at: now,
  });
  const d = DEFAULT_NOTIFICATION_PREFS;
  const first = {
    client_id: clientId,
    email_notifications: d.emailNotifications ? 1 : 0,
    sms_notifications: d.smsNotifications ? 1 : 0,
    webhook_notifications: d.webhookNotifications ? 1 : 0,
    monthly_reports: d.monthlyReports ? 1 : 0,
    digest: d.digest,
    quiet_start: d.quietHours.start,
    quiet_end: d.quietHours.end,
    updated_at: now,
    ...sent,
  };
  await db
    .insertInto('notification_prefs')
    .values(first)
    .onConflict((oc) => oc.column('client_id').doUpdateSet(sent))
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
