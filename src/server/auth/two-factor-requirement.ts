/**
 * The rule "must use two-factor sign-in" (an Owner's for the client's users, the agency's for
 * every admin), applied by the guard (guards.ts) to every signed-in request: someone it applies
 * to who has not set it up may still sign in, but reaches only what setting it up needs (routes
 * that say `config: { allowWithoutTwoFactor: true }`, and the public session and logout), and
 * every other route answers 403 telling them to set it up; the browser takes them there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TWO_FACTOR_MESSAGES } from '../../contract/two-factor';
import type { AdminRow, ClientRow } from '../db/schema';
import { forbidden } from '../http/errors';
import { adminsRequireTwoFactor, twoFactorStateOf } from './two-factor-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable by someone who must use two-factor sign-in and has not set it up yet. */
    allowWithoutTwoFactor?: boolean;
  }
}

function exempt(request: FastifyRequest): boolean {
  return request.routeOptions.config.allowWithoutTwoFactor === true;
}

/** Throws 403 when the client requires two-factor sign-in and this user has not set it up. */
export async function enforceClientTwoFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  client: Pick<ClientRow, 'require_two_factor'>,
  userId: string,
): Promise<void> {
  // Only clients that require it pay for the extra read.
  if (client.require_two_factor !== 1 || exempt(request)) return;
  const state = await twoFactorStateOf(app.deps.db, { kind: 'client_user', id: userId });
  if (state?.enabledAt == null) throw forbidden(TWO_FACTOR_MESSAGES.setupRequired);
}

/** Throws 403 when the agency requires two-factor sign-in of admins and this one has not set it up. */
export async function enforceAdminTwoFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  admin: Pick<AdminRow, 'two_factor_enabled_at'>,
): Promise<void> {
  // An admin with it on never reads the agency's rule.
  if (admin.two_factor_enabled_at != null || exempt(request)) return;
  if (await adminsRequireTwoFactor(app.deps.db)) throw forbidden(TWO_FACTOR_MESSAGES.adminSetupRequired);
}
