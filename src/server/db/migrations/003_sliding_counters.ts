/**
 * Rate counters slide: the previous window's count is kept to weigh into the current one, and the
 * time of the last hit lets a limit ask for a growing pause (login guessing).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rate_counters')
    .addColumn('previous_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('rate_counters')
    .addColumn('last_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_counters').dropColumn('last_at').execute();
  await db.schema.alterTable('rate_counters').dropColumn('previous_count').execute();
}
