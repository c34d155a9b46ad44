/**
 * The provider webhook URL's token (PUBLIC_URL/api/webhooks/voice/{token}), a credential: whoever
 * holds it can post deliveries. Stored twice, never in clear: its SHA-256, which deliveries are
 * looked up by, and sealed with the app's secret box (like the provider API keys), so the URL can
 * be shown again to those allowed to see it (SPEC §3 Security, the admin's client view). A backup
 * holds neither in a usable form without APP_SECRET.
 */
import type { Kysely } from 'kysely';
import { randomToken, type SecretBox, sha256Hex } from '../crypto/secrets';
import type { ClientRow, Database } from '../db/schema';

/** Random bytes of a webhook URL's token (base64url in the URL). */
export const WEBHOOK_TOKEN_BYTES = 32;

/** What 033_webhook_token_hash leaves in `webhook_token_enc` until the server seals it. */
const UNSEALED = 'plain.';

export function webhookTokenHash(token: string): string {
  return sha256Hex(token);
}

export function webhookUrlFor(publicUrl: string, token: string): string {
  return `${publicUrl}/api/webhooks/voice/${token}`;
}

/** The columns that store this token. */
export function webhookTokenColumns(
  secrets: SecretBox,
  token: string,
): Pick<ClientRow, 'webhook_token_hash' | 'webhook_token_enc'> {
  return { webhook_token_hash: webhookTokenHash(token), webhook_token_enc: secrets.encrypt(token) };
}

/** A new token and the columns that store it (a new client, a rotation). */
export function newWebhookToken(secrets: SecretBox) {
  const token = randomToken(WEBHOOK_TOKEN_BYTES);
  return { token, columns: webhookTokenColumns(secrets, token) };
}

/** The client's webhook URL, or null when its token cannot be read back. */
export function webhookUrlOf(
  row: Pick<ClientRow, 'webhook_token_enc'>,
  publicUrl: string,
  secrets: SecretBox,
): string | null {
  const stored = row.webhook_token_enc;
  if (!stored) return null;
  if (stored.startsWith(UNSEALED)) return webhookUrlFor(publicUrl, stored.slice(UNSEALED.length));
  try {
    return webhookUrlFor(publicUrl, secrets.decrypt(stored));
  } catch {
    return null;
  }
}

/**
 * Seals the tokens 033_webhook_token_hash moved out of the clear (it has no APP_SECRET). Run after
 * migrating and checking APP_SECRET, before the server answers anything; answers how many.
 */
export async function sealWebhookTokens(db: Kysely<Database>, secrets: SecretBox): Promise<number> {
  const rows = await db
    .selectFrom('clients')
    .select(['id', 'webhook_token_enc'])
    .where('webhook_token_enc', 'like', `${UNSEALED}%`)
    .execute();
  for (const row of rows) {
    const token = (row.webhook_token_enc ?? '').slice(UNSEALED.length);
    await db
      .updateTable('clients')
      .set({ webhook_token_enc: secrets.encrypt(token) })
      .where('id', '=', row.id)
      .where('webhook_token_enc', '=', row.webhook_token_enc)
      .execute();
  }
  return rows.length;
}
