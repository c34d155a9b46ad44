/** Rows a test needs, created directly and minimally; plus logging in through the real endpoints. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/server/auth/passwords';
import { webhookTokenColumns } from '../../src/server/clients/webhook-token';
import type { AppDeps } from '../../src/server/context';
import { randomToken } from '../../src/server/crypto/secrets';
import type { NewClientRow, SubscriptionsTable } from '../../src/server/db/schema';
import { createAdmin } from '../../src/server/seed';

export const TEST_PASSWORD = 'correct horse battery';

/**
 * A client row, and `webhook_token`: its webhook URL's token in clear (only its hash and a sealed
 * copy are stored), for tests that deliver to it.
 */
export async function createClient(
  deps: AppDeps,
  overrides: Partial<NewClientRow> & { password?: string | null; webhook_token?: string } = {},
) {
  const { password = TEST_PASSWORD, webhook_token = randomToken(24), ...row } = overrides;
  const id = row.id ?? randomUUID();
  const t = deps.now();
  const values: NewClientRow = {
    id,
    first_name: 'Test',
    last_name: 'Client',
    email: `client-${id.slice(0, 8)}@example.com`,
    company_name: 'Acme Test Co',
    account_type: 'individual',
    per_minute_rate_cents: 15,
    timezone: 'UTC',
    is_active: 1,
    api_key_status: 'missing',
    ...webhookTokenColumns(deps.secrets, webhook_token),
    onboarding_status: 'active',
    password_hash: password ? await hashPassword(password) : null,
    created_at: t,
    updated_at: t,
    ...row,
  };
  await deps.db.insertInto('clients').values(values).execute();
  const stored = await deps.db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { ...stored, webhook_token };
}

/** An active card subscription on the Starter plan (500 minutes), stored as billing would keep it. */
export async function createSubscription(
  deps: AppDeps,
  clientId: string,
  overrides: Partial<Omit<SubscriptionsTable, 'id' | 'client_id'>> = {},
) {
  const t = deps.now();
  await deps.db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      client_id: clientId,
      plan_id: 'starter',
      status: 'active',
      provider: 'card',
      card_brand: 'visa',
      card_last4: '4242',
      card_exp: '12/2030',
      stripe_subscription_id: null,
      paypal_subscription_id: null,
      current_period_end: t + 20 * 86_400_000,
      cancel_at_period_end: 0,
      created_at: t,
      updated_at: t,
      ...overrides,
    })
    .execute();
}

export async function createAdminUser(
  deps: AppDeps,
  username = `admin-${randomUUID().slice(0, 6)}`,
  password = TEST_PASSWORD,
) {
  const id = await createAdmin(deps.db, {
    username,
    name: 'Ada Admin',
    passwordHash: await hashPassword(password),
  });
  return { id, username, password };
}

/** Logs in through the real endpoint and answers the Cookie header to send afterwards. */
export async function loginClient(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/client/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`client login failed: ${res.statusCode} ${res.body}`);
  return cookieHeader(res.headers['set-cookie']);
}

export async function loginAdmin(
  app: FastifyInstance,
  username: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.statusCode} ${res.body}`);
  return cookieHeader(res.headers['set-cookie']);
}

/** A new client, signed in: the row and the Cookie header of its session. */
export async function createSignedInClient(
  t: { app: FastifyInstance; deps: AppDeps },
  overrides: Parameters<typeof createClient>[1] = {},
) {
  const client = await createClient(t.deps, overrides);
  return { client, cookie: await loginClient(t.app, client.email) };
}

export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/**
 * The first sign-in with credentials the agency generated: logs in, chooses an own password (the
 * server answers nothing else before), and answers the Cookie header, which stays signed in.
 */
export async function loginWithTemporaryPassword(
  app: FastifyInstance,
  email: string,
  temporaryPassword: string,
  ownPassword = TEST_PASSWORD,
): Promise<string> {
  const cookie = await loginClient(app, email, temporaryPassword);
  const res = await app.inject({
    method: 'POST',
    url: '/api/client/change-password',
    payload: { currentPassword: temporaryPassword, newPassword: ownPassword },
    headers: { cookie },
  });
  if (res.statusCode !== 200) throw new Error(`password change failed: ${res.statusCode} ${res.body}`);
  return cookie;
}
