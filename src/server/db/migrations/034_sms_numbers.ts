/**
 * `sms_numbers`: the numbers a client's texts may go to, each proved by a code sent to it
 * (notifications/sms-numbers.ts). A number is texted only once `verified_at` is set. The table
 * starts empty, so every number stored before it (a user's `sms_number`, the account's
 * `phone_number`) is unverified: nothing is texted to it until someone of the client confirms a
 * code sent there. The pending code is kept as its sha256 with its expiry and the attempts left.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sms_numbers')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('verified_by', 'text')
    .addColumn('code_hash', 'text')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('code_attempts_left', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sms_numbers_pk', ['client_id', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sms_numbers').execute();
}
