/**
 * Role and extra permissions, the part the invite and edit dialogs share. Offers only
 * what the signed-in user holds (the server refuses the rest); an extra the role already includes
 * shows as included rather than as a grant.
 */
import type { ClientRole, GrantablePermission, SessionUser } from '../../../contract/teams';
import { NativeSelect } from '../../components/native-select';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import {
  EXTRA_LABELS,
  grantableExtras,
  grantableRoles,
  ROLE_HINTS,
  ROLE_LABELS,
  roleIncludes,
} from './user-labels';

export interface UserAccess {
  role: ClientRole;
  permissions: GrantablePermission[];
}

export function UserAccessFields({
  idPrefix,
  actor,
  value,
  onChange,
}: {
  idPrefix: string;
  actor: Pick<SessionUser, 'permissions'>;
  value: UserAccess;
  onChange: (next: UserAccess) => void;
}) {
  const roles = grantableRoles(actor);
  // The current role stays listed even when the actor could not give it (so the form shows the truth).
  const roleOptions = roles.includes(value.role) ? roles : [value.role, ...roles];
  const toggle = (extra: GrantablePermission, on: boolean) =>
    onChange({
      ...value,
      permissions: on ? [...value.permissions, extra] : value.permissions.filter((p) => p !== extra),
    });
  return (
    <>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-role`}>Role</Label>
        <NativeSelect
          id={`${idPrefix}-role`}
          value={value.role}
          aria-describedby={`${idPrefix}-role-hint`}
          // The options are the ClientRole values
          onChange={(e) => onChange({ ...value, role: e.target.value as ClientRole })}
        >
          {roleOptions.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </NativeSelect>
        <p id={`${idPrefix}-role-hint`} className="text-muted-foreground text-xs">
          {ROLE_HINTS[value.role]}
        </p>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium text-sm">Extra permissions</legend>
        {grantableExtras(actor).map((extra) => {
          const included = roleIncludes(value.role, extra);
          const id = `${idPrefix}-extra-${extra}`;
          return (
            <div key={extra} className="flex items-center gap-2">
              <Checkbox
                id={id}
                checked={included || value.permissions.includes(extra)}
                disabled={included}
                onCheckedChange={(checked) => toggle(extra, checked === true)}
              />
              <Label htmlFor={id} className="font-normal">
                {EXTRA_LABELS[extra]}
                {included && <span className="text-muted-foreground"> (included in the role)</span>}
              </Label>
            </div>
          );
        })}
      </fieldset>
    </>
  );
}

/** What to send: the extras the role does not already include. */
export function accessToSend(access: UserAccess): UserAccess {
  return { role: access.role, permissions: access.permissions.filter((p) => !roleIncludes(access.role, p)) };
}
