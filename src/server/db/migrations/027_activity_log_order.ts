/**
 * The activity log's order is newest first with the line's id breaking ties (`at desc, id desc`,
 * teams/activity-log.ts), so a page is read straight from an index only when the index ends with
 * both. The indexes of 021 and 023 ended at `at`: on PostgreSQL a page of a 200,000-line log
 * sorted every line first (bench --teams: 130–150 ms p50 against 0.5 ms for a page in `at` order
 * alone). Each is replaced by the same columns plus `id`; the prefixes stay, so nothing that used
 * the old ones loses its index.
 */
import type { Kysely } from 'kysely';

const REPLACED = [
  ['client_activity_client_at', ['client_id', 'at']],
  ['client_activity_client_user_at', ['client_id', 'user_id', 'at']],
  ['client_activity_client_action_at', ['client_id', 'action', 'at']],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of REPLACED) {
    await db.schema
      .createIndex(`${name}_id`)
      .on('client_activity')
      .columns([...columns, 'id'])
      .execute();
    await db.schema.dropIndex(name).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of REPLACED) {
    await db.schema
      .createIndex(name)
      .on('client_activity')
      .columns([...columns])
      .execute();
    await db.schema.dropIndex(`${name}_id`).execute();
  }
}
