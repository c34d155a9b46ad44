/** Rows the e2e specs rely on: onboarded clients with passwords and provider keys (see env.ts). */
import { randomUUID } from 'node:crypto';
import type { VoiceSim } from '../../../sim/voice-provider';
import { hashPassword } from '../../../src/server/auth/passwords';
import { newWebhookToken } from '../../../src/server/clients/webhook-token';
import type { AppDeps } from '../../../src/server/context';
import { PRIVACY_CLIENT, PRIVACY_VIEWER, SEEDED_CLIENTS } from './env';

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
        timezone: 'timezone' in client && typeof client.timezone === 'string' ? client.timezone : 'UTC',
        is_active: 1,
        bland_api_key_enc: deps.secrets.encrypt(client.apiKey),
        api_key_status: 'valid',
        ...newWebhookToken(deps.secrets).columns,
        onboarding_status: 'active',
        password_hash: await hashPassword(client.password),
        created_at: t,
        updated_at: t,
      })
      .execute();
  }
  await seedPrivacyViewer(deps, t);
}

/**
 * PRIVACY_CLIENT's people: its account login as the Owner (written here, since a client with users
 * gets no account login at its first sign-in) and PRIVACY_VIEWER, an active Viewer.
 */
async function seedPrivacyViewer(deps: AppDeps, t: number): Promise<void> {
  const client = await deps.db
    .selectFrom('clients')
    .select(['id', 'email', 'password_hash'])
    .where('email', '=', PRIVACY_CLIENT.email)
    .executeTakeFirstOrThrow();
  const person = {
    client_id: client.id,
    permissions: '[]',
    status: 'active' as const,
    created_at: t,
    updated_at: t,
  };
  await deps.db
    .insertInto('client_users')
    .values([
      {
        ...person,
        id: randomUUID(),
        email: client.email,
        name: 'Paula Owner',
        password_hash: client.password_hash,
        role: 'owner',
        is_account_login: 1,
      },
      {
        ...person,
        id: randomUUID(),
        email: PRIVACY_VIEWER.email,
        name: PRIVACY_VIEWER.name,
        password_hash: await hashPassword(PRIVACY_VIEWER.password),
        role: 'viewer',
        is_account_login: 0,
      },
    ])
    .execute();
}
