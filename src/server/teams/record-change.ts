/**
 * The activity line of a change the signed-in person made to the account:
 * `settings_change` (profile, notifications, outcomes, the webhook endpoint), `key_change` (the
 * voice API key, a signing secret), `password_change`. Pass the transaction of the change where
 * the route has one. Screen preferences are not recorded: they change nothing anyone else sees.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { requireClientUser } from '../auth/guards';
import type { Database } from '../db/schema';
import { recordActivity } from './activity';

export type ChangeAction = 'settings_change' | 'key_change' | 'password_change';

export async function recordChange(
  db: Kysely<Database>,
  request: FastifyRequest,
  action: ChangeAction,
  detail: Record<string, unknown>,
  now: number,
): Promise<void> {
  const user = requireClientUser(request);
  await recordActivity(db, { clientId: user.client_id, userId: user.id, action, detail }, now);
}
