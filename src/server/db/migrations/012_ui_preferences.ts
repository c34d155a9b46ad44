/**
 * What each person chose for the screens (the call log's columns), keyed by who they are
 * ('client:{id}' or 'admin:{id}'), so a choice follows them to any browser.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ui_preferences')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('call_log_columns', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ui_preferences').execute();
}
