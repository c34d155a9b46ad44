/**
 * What the signed-in client user may do, for hiding what the server would refuse. The
 * server decides (403 naming the permission); this only keeps the browser from offering it. Reads
 * `session.user.permissions` (the effective ones: role preset plus extras), nothing else.
 */
import type { Permission, SessionUser } from '../../contract/teams';
import { useClientSession } from './session';

/** Pure: false without a user (signed out, or the session not loaded yet). */
export function can(
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: Permission,
): boolean {
  return user?.permissions.includes(permission) ?? false;
}

/** The signed-in user holds `permission`; false while loading or signed out. */
export function useCan(permission: Permission): boolean {
  return can(useClientSession({ follow: true }).data?.user, permission);
}

/** The signed-in user, once the session has it (null while loading or signed out). */
export function useSessionUser(): SessionUser | null {
  return useClientSession({ follow: true }).data?.user ?? null;
}
