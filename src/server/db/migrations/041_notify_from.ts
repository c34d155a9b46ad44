/**
 * Notifications are about what just happened, not a new client's history:
 * - `clients.notify_from`: when the client's scheduled e-mails may start (its first sign-in, or its
 *   creation by the wizard with "notify now"); a digest covers only periods from that day on, and a
 *   client that never signed in gets none. Clients onboarded before this migration were receiving
 *   digests already, so they keep them: theirs starts at their creation.
 * - `notification_prefs.alert_window_minutes`: how long after a call ended it may still alert
 *   (e-mail, text); null is the default, an hour.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('notify_from', 'bigint').execute();
  await db.schema.alterTable('notification_prefs').addColumn('alert_window_minutes', 'integer').execute();
  await sql`update clients set notify_from = created_at where onboarding_status = 'active'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notification_prefs').dropColumn('alert_window_minutes').execute();
  await db.schema.alterTable('clients').dropColumn('notify_from').execute();
}
