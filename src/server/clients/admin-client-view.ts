/**
 * Maps client rows to the admin area's shapes (contract/admin.ts). The API key leaves this file
 * only masked; column names never leak past it.
 */

import type { AdminClient, AdminClientListItem } from '../../contract/admin';
import { maskApiKey } from '../../contract/admin';
import { isoTime } from '../../contract/common';
import { DEFAULT_VOICE_PROVIDER, isVoiceProvider } from '../../contract/providers';
import type { SecretBox } from '../crypto/secrets';
import type { ClientRow } from '../db/schema';
import { webhookUrlOf } from './webhook-token';

export interface ClientTotals {
  totalCalls: number;
  totalCostMicros: number;
  lastCallAt: number | null;
}

/** A stored key that no longer decrypts (APP_SECRET changed) still shows as present. */
function maskedKey(row: ClientRow, secrets: SecretBox): string | null {
  if (!row.bland_api_key_enc) return null;
  try {
    return maskApiKey(secrets.decrypt(row.bland_api_key_enc));
  } catch {
    return '••••••••';
  }
}

export function toAdminClient(row: ClientRow, publicUrl: string, secrets: SecretBox): AdminClient {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    companyName: row.company_name,
    phoneNumber: row.phone_number,
    jobTitle: row.job_title,
    companyWebsite: row.company_website,
    industry: row.industry,
    companySize: row.company_size,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    country: row.country,
    notes: row.notes,
    accountType: row.account_type,
    perMinuteRate: row.per_minute_rate_cents / 100,
    timezone: row.timezone,
    isActive: row.is_active === 1,
    showPlatformDetails: row.show_platform_details === 1,
    clientManagesApiKey: row.client_manages_api_key === 1,
    blandApiKey: maskedKey(row, secrets),
    apiKeyStatus: row.api_key_status,
    clientIdentifier: row.client_identifier,
    organizationId: row.organization_id,
    // Empty only if the sealed token no longer opens (APP_SECRET changed): rotate to get a new one.
    webhookUrl: webhookUrlOf(row, publicUrl, secrets) ?? '',
    provider: isVoiceProvider(row.provider) ? row.provider : DEFAULT_VOICE_PROVIDER,
    hasWebhookSigningSecret: row.webhook_secret_enc !== null,
    profileImageUrl: row.profile_image_url,
    onboardingStatus: row.onboarding_status,
    hasLoginCredentials: row.password_hash !== null,
    createdAt: isoTime(row.created_at) ?? '',
    lastSyncAt: isoTime(row.last_sync_at),
  };
}

export function toAdminListItem(
  row: ClientRow,
  totals: ClientTotals,
  publicUrl: string,
  secrets: SecretBox,
): AdminClientListItem {
  return {
    ...toAdminClient(row, publicUrl, secrets),
    totalCalls: totals.totalCalls,
    totalCost: Math.round(totals.totalCostMicros / 10_000) / 100,
    lastCallDate: isoTime(totals.lastCallAt),
  };
}
