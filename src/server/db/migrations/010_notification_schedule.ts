/**
 * Notification preferences grow: the digest's frequency (off, daily, weekly; weekly by
 * default) and the quiet hours texts wait through (21:00 to 08:00 by default), per client.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('notification_prefs')
    .addColumn('digest', 'text', (c) => c.notNull().defaultTo('weekly'))
    .execute();
  await db.schema
    .alterTable('notification_prefs')
    .addColumn('quiet_start', 'integer', (c) => c.notNull().defaultTo(21))
    .execute();
  await db.schema
    .alterTable('notification_prefs')
    .addColumn('quiet_end', 'integer', (c) => c.notNull().defaultTo(8))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['digest', 'quiet_start', 'quiet_end'])
    await db.schema.alterTable('notification_prefs').dropColumn(column).execute();
}
