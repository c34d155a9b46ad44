/**
 * The rule "must use two-factor sign-in" (an Owner's for the client's users, the agency's for
 * every admin), applied by the guard (guards.ts) to every signed-in request, whatever the route's
 * path: someone it applies to who has not set it up may still sign in, but reaches only what
 * setting it up needs (SET_UP_ROUTES below, and the public login, session and logout, which read
 * no data), and every other route answers 403 telling them to set it up; the browser takes them
 * there. The list is here, short and explicit, rather than a flag a route sets: a route cannot
 * opt out of the rule by itself. Open live streams ask again at each heartbeat (stillAllowed).
 *
 * The rule "must choose a new password" lives here too, in the same style: a client user whose
 * password the agency chose (generate-credentials) reaches only PASSWORD_CHANGE_ROUTES, and every
 * other client route answers 403 with `mustChangePassword: true`. It comes before two-factor
 * set-up, which the change would otherwise wait on: choosing the password is the first step.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../contract/account';
import { TWO_FACTOR_MESSAGES } from '../../contract/two-factor';
import type { AdminRow, ClientRow, ClientUserRow } from '../db/schema';
import { forbidden, HttpError } from '../http/errors';
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

/** `METHOD /pattern` of the routes someone who must choose a new password can reach. */
export const PASSWORD_CHANGE_ROUTES: ReadonlySet<string> = new Set(['POST /api/client/change-password']);

const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url}`;

function exempt(request: FastifyRequest): boolean {
  return SET_UP_ROUTES.has(routeOf(request));
}

/** Whether this user still signs in with a password the agency chose. */
export function clientMustChangePassword(user: Pick<ClientUserRow, 'must_change_password'>): boolean {
  return user.must_change_password === 1;
}

/** What a sign-in or the session answer says beside the account: `mustChangePassword: true`, or nothing. */
export function mustChangePasswordFlag(user: Pick<ClientUserRow, 'must_change_password'>): {
  mustChangePassword?: true;
} {
  return clientMustChangePassword(user) ? { mustChangePassword: true } : {};
}

/**
 * Throws 403 (`mustChangePassword: true`) when the user must choose a new password and this is
 * not the change; answers true when it is the change, which no other set-up rule may hold up.
 */
export function enforceClientPasswordChange(
  request: FastifyRequest,
  user: Pick<ClientUserRow, 'must_change_password'>,
): boolean {
  if (!clientMustChangePassword(user)) return false;
  if (PASSWORD_CHANGE_ROUTES.has(routeOf(request))) return true;
  throw new HttpError(403, ACCOUNT_MESSAGES.mustChangePassword, undefined, { mustChangePassword: true });
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
