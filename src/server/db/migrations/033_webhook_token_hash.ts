/**
 * Provider webhook tokens (the secret part of PUBLIC_URL/api/webhooks/voice/{token}) are no longer
 * stored in clear: `clients.webhook_token` becomes `webhook_token_hash`, the token's SHA-256 (hex),
 * which deliveries are looked up by. The token is random and 128+ bits long, so an unsalted hash
 * is enough: nothing can be guessed from it.
 *
 * The URL stays viewable (SPEC §3 Security, the admin's client view) from `webhook_token_enc`, the
 * token sealed with the app's secret box (APP_SECRET). A migration has no APP_SECRET, so it moves
 * each token there marked `plain.`; the server seals them right after migrating, before it
 * answers anything (clients/webhook-token.ts `sealWebhookTokens`, also run by `npm run migrate`).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

/** The clients columns this migration reads and writes, as it leaves them. */
interface Tables {
  clients: { id: string; webhook_token_hash: string; webhook_token_enc: string | null };
}

const BATCH = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  // A rename keeps the column's NOT NULL and UNIQUE on both databases (SQLite cannot drop a
  // UNIQUE column, nor add one to a filled table).
  await db.schema.alterTable('clients').renameColumn('webhook_token', 'webhook_token_hash').execute();
  await db.schema.alterTable('clients').addColumn('webhook_token_enc', 'text').execute();
  // The frozen copy below reads and writes these tables as they were at this migration.
  const typed = db as unknown as Kysely<Tables>;
  let after = '';
  for (;;) {
    // Rows still holding a token in clear have no `webhook_token_enc` yet.
    const rows = await typed
      .selectFrom('clients')
      .select(['id', 'webhook_token_hash'])
      .where('webhook_token_enc', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const token = row.webhook_token_hash;
      await typed
        .updateTable('clients')
        .set({
          webhook_token_hash: createHash('sha256').update(token).digest('hex'),
          webhook_token_enc: `plain.${token}`,
        })
        .where('id', '=', row.id)
        .execute();
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1].id;
  }
}

export async function down(): Promise<void> {
  // The tokens cannot be read back from their hashes without APP_SECRET: no way down.
  throw new Error('033_webhook_token_hash cannot be reverted');
}
