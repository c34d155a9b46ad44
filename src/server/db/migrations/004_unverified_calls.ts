/**
 * Calls a webhook announced that the provider has not confirmed yet (no signing secret, the
 * provider not answering): stored, but out of the log, stats, usage and revenue until a sync or a
 * later confirmed delivery settles them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('calls')
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('calls').dropColumn('verified').execute();
}
