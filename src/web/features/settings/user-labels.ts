/** The words the Users tab and the admin's users card show for roles, extras and statuses (pure, tested). */
import {
  type ClientRole,
  GRANTABLE_PERMISSIONS,
  type GrantablePermission,
  ROLE_PERMISSIONS,
  type SessionUser,
  type UserStatus,
} from '../../../contract/teams';
import { can } from '../../lib/permissions';

export const ROLE_LABELS: Record<ClientRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  viewer: 'Viewer',
};

export const ROLE_HINTS: Record<ClientRole, string> = {
  owner: 'Everything, including billing, users and keys',
  manager: 'Calls, outcomes, notifications, exports and reports; no billing, users or keys',
  viewer: 'Dashboard, call log, recordings and transcripts, read only; numbers masked',
};

export const EXTRA_LABELS: Record<GrantablePermission, string> = {
  unmask_numbers: 'See full caller numbers',
  export: 'Export calls (CSV, Excel)',
  receive_texts: 'Get call alerts by text',
};

export const STATUS_LABELS: Record<UserStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  deactivated: 'Deactivated',
};

/** The roles the signed-in user may give: those whose preset they hold entirely. */
export function grantableRoles(actor: Pick<SessionUser, 'permissions'>): ClientRole[] {
  // Object.keys is string[]; the keys are ROLE_PERMISSIONS' own
  return (Object.keys(ROLE_PERMISSIONS) as ClientRole[]).filter((role) =>
    ROLE_PERMISSIONS[role].every((p) => can(actor, p)),
  );
}

/** The extras the signed-in user may give: only what they hold. */
export function grantableExtras(actor: Pick<SessionUser, 'permissions'>): GrantablePermission[] {
  return GRANTABLE_PERMISSIONS.filter((p) => can(actor, p));
}

/** An extra already in the role's preset needs no grant (a Manager exports anyway). */
export function roleIncludes(role: ClientRole, extra: GrantablePermission): boolean {
  return ROLE_PERMISSIONS[role].includes(extra);
}

/** The extras worth showing for a user: those the role does not already include. */
export function extrasShown(role: ClientRole, extras: readonly GrantablePermission[]): string {
  const list = extras.filter((p) => !roleIncludes(role, p)).map((p) => EXTRA_LABELS[p]);
  return list.length > 0 ? list.join(', ') : 'None';
}

export function lastSignInLabel(iso: string | null): string {
  if (!iso) return 'Never';
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
