/**
 * Webhook notifications: each client may give one URL the product POSTs its finished
 * calls to, signed with a secret only the client saw (kept encrypted, like provider keys). The
 * deliveries themselves are outbox messages on the 'webhook' channel (007_outbox).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_webhooks')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    /** SecretBox-sealed whsec_… signing secret. */
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_webhooks').execute();
}
