/**
 * The client's privacy settings: `hide_numbers_until_shown`, when 1, masks callers'
 * numbers even for users holding `unmask_numbers`, who then reveal one call's number at a time
 * (POST /api/client/calls/{id}/unmask, recorded in the activity log). 0 (the default) keeps the
 * answers every client had before teams. Later privacy settings sit beside it.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('hide_numbers_until_shown', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('hide_numbers_until_shown').execute();
}
