/**
 * Vapi and Retell beside Bland: each client's voice platform. Existing clients keep
 * Bland, the only one there was.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('provider', 'text', (c) => c.notNull().defaultTo('bland'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('provider').execute();
}
