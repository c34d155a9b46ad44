/**
 * Per-user notification choices: what each of a client's people chose for themselves,
 * per channel, on `client_users`:
 * - `notify_email`, `notify_sms`: 1 on, 0 off, null (every existing user) follows the account's
 *   switch in notification_prefs, so nothing anyone receives changes with this migration.
 * - `sms_number`: the user's own mobile number for texts, E.164 as the account's phone number is
 *   stored; null: none (the account login then falls back to the account's number).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('client_users').addColumn('notify_email', 'integer').execute();
  await db.schema.alterTable('client_users').addColumn('notify_sms', 'integer').execute();
  await db.schema.alterTable('client_users').addColumn('sms_number', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('client_users').dropColumn('sms_number').execute();
  await db.schema.alterTable('client_users').dropColumn('notify_sms').execute();
  await db.schema.alterTable('client_users').dropColumn('notify_email').execute();
}
