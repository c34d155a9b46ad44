/**
 * The rule "must use two-factor sign-in" (an Owner's for the client's users, the agency's for
 * every admin), applied by the guard (guards.ts) to every signed-in request, whatever the route's
 * path: someone it applies to who has not set it up may still sign in, but reaches only what
 * setting it up needs (SET_UP_ROUTES below, and the public login, session and logout, which read
 * no data), and every other route answers 403 telling them to set it up; the browser takes them
 * there. The list is here, short and explicit, rather than a flag a route sets: a route cannot
 * opt out of the rule by itself. Open live streams ask again at each heartbeat (stillAllowed).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TWO_FACTOR_MESSAGES } from '../../contract/two-factor';
import type { AdminRow, ClientRow } from '../db/schema';
import { forbidden } from '../http/errors';
import { adminsRequireTwoFactor, twoFactorStateOf } from './two-factor-store';

/** `METHOD /pattern` of the signed-in routes someone who must set it up can reach: the set-up. */
export const SET_UP_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/client/2fa',
  'POST /api/client/2fa/setup',
  'POST /api/client/2fa/enable',
  'GET /api/admin/2fa',
  'POST /api/admin/2fa/setup',
  'POST /api/admin/2fa/enable',
]);

function exempt(request: FastifyRequest): boolean {
  return SET_UP_ROUTES.has(`${request.method} ${request.routeOptions.url}`);
}

/** Whether the client requires two-factor sign-in and this user has not set it up. */
export async function clientMustSetUp(
  app: FastifyInstance,
  client: Pick<ClientRow, 'require_two_factor'>,
  userId: string,
): Promise<boolean> {
  // Only clients that require it pay for the extra read.
  if (client.require_two_factor !== 1) return false;
  const state = await twoFactorStateOf(app.deps.db, { kind: 'client_user', id: userId });
  return state?.enabledAt == null;
}

/** Whether the agency requires two-factor sign-in of admins and this one has not set it up. */
export async function adminMustSetUp(
  app: FastifyInstance,
  admin: Pick<AdminRow, 'two_factor_enabled_at'>,
): Promise<boolean> {
  // An admin with it on never reads the agency's rule.
  if (admin.two_factor_enabled_at != null) return false;
  return adminsRequireTwoFactor(app.deps.db);
}

/** Throws 403 when the client requires two-factor sign-in and this user has not set it up. */
export async function enforceClientTwoFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  client: Pick<ClientRow, 'require_two_factor'>,
  userId: string,
): Promise<void> {
  if (exempt(request)) return;
  if (await clientMustSetUp(app, client, userId)) throw forbidden(TWO_FACTOR_MESSAGES.setupRequired);
}

/** Throws 403 when the agency requires two-factor sign-in of admins and this one has not set it up. */
export async function enforceAdminTwoFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  admin: Pick<AdminRow, 'two_factor_enabled_at'>,
): Promise<void> {
  if (exempt(request)) return;
  if (await adminMustSetUp(app, admin)) throw forbidden(TWO_FACTOR_MESSAGES.adminSetupRequired);
}
