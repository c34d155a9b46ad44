/**
 * `quality_rollup_versions`: per client, a number bumped in the same transaction as any change to
 * its quality rollups of a settled day (days more than two UTC days old; quality/settled-histograms.ts).
 * A summary merges the settled days of a period once and keeps the result under this number, so
 * it reads only the last few days' rollups while nothing older changes. A client without a row has
 * version 0.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quality_rollup_versions')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quality_rollup_versions').execute();
}
