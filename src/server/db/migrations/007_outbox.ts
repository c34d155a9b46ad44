/**
 * Notifications: a transactional outbox. The write that causes a message (a call
 * stored, a threshold crossed, a payment failed) inserts it in the same transaction; workers on
 * any instance claim and deliver it. `dedupe_key` is unique, so one cause never makes two
 * messages however often it is written again (a webhook re-delivered, a sync re-reading a call).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    /** email | sms | webhook */
    .addColumn('channel', 'text', (c) => c.notNull())
    /** What caused it: call.attention, call.completed, digest.daily, report.monthly, usage.80, … */
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    /** pending | sent | failed (gave up) | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    /** A claim is a lease: a worker that dies mid-send loses it, and another takes the message over. */
    .addColumn('claimed_until', 'bigint')
    .addColumn('claimed_by', 'text')
    .addColumn('last_error', 'text')
    /** HTTP status of the last webhook attempt (the delivery log shows it). */
    .addColumn('last_status_code', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  // Workers read "pending and due" in due order; the index keeps that cheap however long the log grows.
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('outbox_client')
    .on('outbox')
    .columns(['client_id', 'channel', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
}
