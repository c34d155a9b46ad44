/**
 * One lease and one walk for the background work over a client's calls:
 * - `leases`: a named claim with an expiry and its holder (background/lease.ts), replacing the
 *   sync lock's columns on `clients`, the three `*_lock_until` columns of re-classification,
 *   the quality backfill and re-redaction, and the backup's `backup_running_until` setting;
 * - `client_walks`: per client and kind, where a walk over its calls stands
 *   (background/client-walk.ts), taking over `client_outcomes.reclassify_*`,
 *   `client_privacy.reredact_*` and the whole of `client_quality`.
 * Progress moves as it is, so what the API shows does not change; locks held by running
 * processes are dropped, as a restart does on SQLite (their work resumes or is asked again).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('client_walks')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint')
    .addColumn('after_id', 'text')
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('finished_at', 'bigint')
    .addPrimaryKeyConstraint('client_walks_pk', ['client_id', 'kind'])
    .execute();

  // Re-classification was running while done < total (a save sets 0 of all the calls).
  await sql`
    insert into client_walks (client_id, kind, done, total, finished_at)
    select client_id, 'reclassify', reclassify_done, reclassify_total,
      case when reclassify_done < reclassify_total then null else updated_at end
    from client_outcomes
  `.execute(db);
  await sql`
    insert into client_walks (client_id, kind, after_id, done, total, finished_at)
    select client_id, 'quality-backfill', backfill_after_id, backfill_done, backfill_total,
      backfill_finished_at
    from client_quality
  `.execute(db);
  // Re-redaction was pending while asked for; a client never asked has no walk (idle).
  await sql`
    insert into client_walks (client_id, kind, requested_at, done, total, finished_at)
    select client_id, 're-redact', reredact_requested_at, reredact_done, reredact_total,
      case when reredact_requested_at is null then updated_at else null end
    from client_privacy
    where reredact_requested_at is not null or reredact_total > 0
  `.execute(db);

  await db.schema.dropTable('client_quality').execute();
  for (const column of ['reclassify_done', 'reclassify_total', 'reclassify_lock_until'])
    await db.schema.alterTable('client_outcomes').dropColumn(column).execute();
  for (const column of ['reredact_requested_at', 'reredact_done', 'reredact_total', 'reredact_lock_until'])
    await db.schema.alterTable('client_privacy').dropColumn(column).execute();
  for (const column of ['sync_lock_until', 'sync_lock_owner'])
    await db.schema.alterTable('clients').dropColumn(column).execute();
  await sql`delete from app_settings where key = 'backup_running_until'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('sync_lock_until', 'bigint').execute();
  await db.schema.alterTable('clients').addColumn('sync_lock_owner', 'text').execute();
  await db.schema.alterTable('client_privacy').addColumn('reredact_requested_at', 'bigint').execute();
  await db.schema
    .alterTable('client_privacy')
    .addColumn('reredact_done', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('client_privacy')
    .addColumn('reredact_total', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('client_privacy').addColumn('reredact_lock_until', 'bigint').execute();
  await db.schema
    .alterTable('client_outcomes')
    .addColumn('reclassify_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('client_outcomes')
    .addColumn('reclassify_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('client_outcomes').addColumn('reclassify_lock_until', 'bigint').execute();
  await db.schema
    .createTable('client_quality')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('backfill_after_id', 'text')
    .addColumn('backfill_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backfill_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backfill_finished_at', 'bigint')
    .addColumn('backfill_lock_until', 'bigint')
    .execute();

  await sql`
    insert into client_quality (client_id, backfill_after_id, backfill_done, backfill_total, backfill_finished_at)
    select client_id, after_id, done, total, finished_at from client_walks where kind = 'quality-backfill'
  `.execute(db);
  await sql`
    update client_outcomes set
      reclassify_done = coalesce((select w.done from client_walks w
        where w.client_id = client_outcomes.client_id and w.kind = 'reclassify'), 0),
      reclassify_total = coalesce((select w.total from client_walks w
        where w.client_id = client_outcomes.client_id and w.kind = 'reclassify'), 0)
  `.execute(db);
  await sql`
    update client_privacy set
      reredact_requested_at = (select case when w.finished_at is null then coalesce(w.requested_at, 0) end
        from client_walks w where w.client_id = client_privacy.client_id and w.kind = 're-redact'),
      reredact_done = coalesce((select w.done from client_walks w
        where w.client_id = client_privacy.client_id and w.kind = 're-redact'), 0),
      reredact_total = coalesce((select w.total from client_walks w
        where w.client_id = client_privacy.client_id and w.kind = 're-redact'), 0)
  `.execute(db);
  await db.schema.dropTable('client_walks').execute();
  await db.schema.dropTable('leases').execute();
}
