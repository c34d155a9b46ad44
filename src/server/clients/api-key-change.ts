/**
 * The one way a client's provider API key changes, whoever changes it (the client's Security tab,
 * an admin's edit dialog): stored encrypted, with its checked status, and, when it is another
 * key, the sync watermark cleared. Another key may be another provider account, whose older calls
 * the next sync must fetch from the start (it de-duplicates by call id).
 */
import type { SecretBox } from '../crypto/secrets';
import type { ApiKeyStatus, ClientRow, ClientUpdate } from '../db/schema';

export function apiKeyChange(
  secrets: SecretBox,
  current: Pick<ClientRow, 'bland_api_key_enc'>,
  key: string | null,
  status: ApiKeyStatus,
): ClientUpdate {
  const previous = current.bland_api_key_enc ? secrets.decrypt(current.bland_api_key_enc) : null;
  return {
    bland_api_key_enc: key ? secrets.encrypt(key) : null,
    api_key_status: key ? status : 'missing',
    ...(previous === key ? {} : { sync_watermark: null }),
  };
}

/** Provider checks of new API keys per client (or admin) per 15 minutes. */
export const KEY_CHECKS_PER_WINDOW = 10;
