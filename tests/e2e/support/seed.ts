/** Rows the e2e specs rely on: onboarded clients with passwords and provider keys (see env.ts). */
import { randomUUID } from 'node:crypto';
import type { VoiceSim } from '../../../sim/voice-provider';
import { hashPassword } from '../../../src/server/auth/passwords';
import type { AppDeps } from '../../../src/server/context';
import { randomToken } from '../../../src/server/crypto/secrets';
import { SEEDED_CLIENTS } from './env';

export async function seedE2eFixtures(deps: AppDeps, voice: VoiceSim): Promise<void> {
  const t = deps.now();
  for (const [i, client] of SEEDED_CLIENTS.entries()) {
    voice.addKey(client.apiKey);
    await deps.db
      .insertInto('clients')
      .values({
        id: randomUUID(),
        first_name: ['Nora', 'Bill', 'Sam', 'Olivia'][i] ?? 'Test',
        last_name: 'West',
        email: client.email,
        company_name: client.company,
        account_type: 'individual',
        per_minute_rate_cents: 15,
        timezone: 'UTC',
        is_active: 1,
        bland_api_key_enc: deps.secrets.encrypt(client.apiKey),
        api_key_status: 'valid',
        webhook_token: randomToken(24),
        onboarding_status: 'active',
        password_hash: await hashPassword(client.password),
        created_at: t,
        updated_at: t,
      })
      .execute();
  }
}
