/** Maps client rows to what the API shows; column names never leak past this file. */
import type { ClientSession } from '../../contract/auth';
import { DEFAULT_VOICE_PROVIDER, isVoiceProvider } from '../../contract/providers';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { webhookUrlOf } from './webhook-token';

/**
 * `showWebhookUrl`: the URL is a credential (whoever holds it can post deliveries), so only people
 * whose role includes `keys` receive it; everyone else gets null.
 */
export function toClientSession(
  row: ClientRow,
  deps: Pick<AppDeps, 'config' | 'secrets'>,
  showWebhookUrl: boolean,
): ClientSession {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    companyName: row.company_name,
    phoneNumber: row.phone_number,
    jobTitle: row.job_title,
    webhookUrl: showWebhookUrl ? webhookUrlOf(row, deps.config.publicUrl, deps.secrets) : null,
    hasWebhookSigningSecret: row.webhook_secret_enc !== null,
    apiKeyStatus: row.api_key_status,
    timezone: row.timezone,
    provider: isVoiceProvider(row.provider) ? row.provider : DEFAULT_VOICE_PROVIDER,
    showPlatformDetails: row.show_platform_details === 1,
    clientManagesApiKey: row.client_manages_api_key === 1,
  };
}
