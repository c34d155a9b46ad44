/**
 * A client user whose password the agency chose (generate-credentials) must choose their own at
 * the next sign-in: until then every client route but the change answers 403. 0 for everyone
 * already here: their passwords stay as they are.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('client_users')
    .addColumn('must_change_password', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('client_users').dropColumn('must_change_password').execute();
}
