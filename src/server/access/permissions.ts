/**
 * What a client's user may do. Every route a client session reaches declares the
 * permission it needs, `config: { permission: 'billing' }`; the guard (guards.ts) checks it in its
 * one hook, after loading the client and its user, and refuses with 403 naming what is missing. A
 * client route that declares none is refused for everyone (and tests/api/client-roles.test.ts
 * fails), so a new route cannot forget. `'signed_in'`: any user, about themselves (their password,
 * their screen choices). Handlers that need a permission for part of an answer ask
 * `hasPermission` / `requirePermission` by name.
 */
import type { FastifyRequest } from 'fastify';
import {
  type ClientRole,
  effectivePermissions,
  GRANTABLE_PERMISSIONS,
  type GrantablePermission,
  type Permission,
  ROLE_PERMISSIONS,
  type SessionUser,
  TEAM_MESSAGES,
} from '../../contract/teams';
import type { ClientUserRow } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';

export type RoutePermission = Permission | 'signed_in';

/** The person of a client session: what the permission check and the session answer need. */
export type SessionUserRow = Pick<
  ClientUserRow,
  | 'id'
  | 'client_id'
  | 'name'
  | 'email'
  | 'role'
  | 'permissions'
  | 'status'
  | 'is_account_login'
  | 'password_hash'
  | 'must_change_password'
>;

/** The extras stored on a user, read defensively (unknown names are dropped). */
export function grantsOf(user: Pick<ClientUserRow, 'permissions'>): GrantablePermission[] {
  try {
    const list: unknown = JSON.parse(user.permissions);
    return Array.isArray(list) ? GRANTABLE_PERMISSIONS.filter((p) => list.includes(p)) : [];
  } catch {
    return [];
  }
}

/** The signed-in person as GET /api/client/session answers it: the effective permissions. */
export function toSessionUser(
  user: Pick<SessionUserRow, 'id' | 'name' | 'email' | 'role' | 'permissions'>,
): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    permissions: permissionsOf(user),
  };
}

/** The user's role preset and granted extras. */
export function permissionsOf(user: Pick<SessionUserRow, 'role' | 'permissions'>): Permission[] {
  return effectivePermissions(user.role, grantsOf(user));
}

export function hasPermission(
  user: Pick<SessionUserRow, 'role' | 'permissions'>,
  permission: RoutePermission,
): boolean {
  return permission === 'signed_in' || permissionsOf(user).includes(permission);
}

/** The provider webhook URL is a credential: shown only to those who manage the account's keys. */
export function canSeeWebhookUrl(user: Pick<SessionUserRow, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'keys');
}

/** The signed-in client user, refused with 403 naming the permission when it lacks it. */
export function requirePermission(request: FastifyRequest, permission: RoutePermission): SessionUserRow {
  const user = request.clientUser;
  if (!user) throw unauthorized();
  if (!hasPermission(user, permission)) throw forbidden(TEAM_MESSAGES.missingPermission(permission));
  return user;
}

/**
 * What `actor` may not grant of a role and extras: a user grants only what they hold. Empty when
 * all of it is theirs to give.
 */
export function ungrantable(
  actor: Pick<SessionUserRow, 'role' | 'permissions'>,
  role: ClientRole,
  extras: readonly Permission[],
): Permission[] {
  const held = new Set(permissionsOf(actor));
  return [...new Set([...ROLE_PERMISSIONS[role], ...extras])].filter((p) => !held.has(p));
}
