/** Maps client rows to what the API shows; column names never leak past this file. */
import type { ClientSession } from '../../contract/auth';
import { DEFAULT_VOICE_PROVIDER, isVoiceProvider } from '../../contract/providers';
import type { ClientRow } from '../db/schema';

/** Random bytes of a webhook URL's token (base64url in the URL). */
export const WEBHOOK_TOKEN_BYTES = 32;

export function webhookUrlFor(publicUrl: string, token: string): string {
  return `${publicUrl}/api/webhooks/voice/${token}`;
}

export function toClientSession(row: ClientRow, publicUrl: string): ClientSession {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    companyName: row.company_name,
    phoneNumber: row.phone_number,
    jobTitle: row.job_title,
    webhookUrl: webhookUrlFor(publicUrl, row.webhook_token),
    hasWebhookSigningSecret: row.webhook_secret_enc !== null,
    apiKeyStatus: row.api_key_status,
    timezone: row.timezone,
    provider: isVoiceProvider(row.provider) ? row.provider : DEFAULT_VOICE_PROVIDER,
  };
}
