/**
 * Settings › Users: the client's people (name, e-mail, role, extras, status, last
 * sign-in, two-factor), invite, change access, deactivate or reactivate, resend an invitation,
 * remove. Owners only (the tab is hidden otherwise). A table on wide screens, a list of cards on a
 * phone. The server's refusals (the last Owner, an e-mail already a user, the daily cap) are shown
 * in its words.
 */
import { useState } from 'react';
import type { ClientUser, SessionUser, UserStatus } from '../../../contract/teams';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { QueryView } from '../../components/query-view';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { failureToast } from '../../lib/failure-toast';
import { useSessionUser } from '../../lib/permissions';
import { useMediaQuery } from '../../lib/use-media-query';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { EditUserDialog } from './edit-user-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { extrasShown, lastSignInLabel, ROLE_LABELS, STATUS_LABELS } from './user-labels';
import { useClientUsers, useRemoveUser, useResendInvite, useUpdateUser } from './users-queries';

const STATUS_CLASS: Record<UserStatus, string> = {
  active: 'bg-success text-white',
  invited: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  deactivated: '',
};

function StatusBadge({ status }: { status: UserStatus }) {
  return (
    <Badge variant={status === 'deactivated' ? 'secondary' : 'default'} className={STATUS_CLASS[status]}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

export function UsersTab() {
  const actor = useSessionUser();
  const users = useClientUsers();
  const wide = useMediaQuery('(min-width: 768px)');
  const [editing, setEditing] = useState<ClientUser | null>(null);
  const [removing, setRemoving] = useState<ClientUser | null>(null);
  const remove = useRemoveUser();
  if (!actor) return null;

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({
          title: removing.status === 'invited' ? 'Invitation revoked' : 'User removed',
          description: removing.email,
        });
        setRemoving(null);
      },
      onError: (error) => {
        failureToast('Could not remove the user', error);
        setRemoving(null);
      },
    });
  };

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>
            <h2>Users</h2>
          </CardTitle>
          <CardDescription>
            The people who sign in to this account, and what each may do. Owners manage users.
          </CardDescription>
        </div>
        <InviteUserDialog actor={actor} />
      </CardHeader>
      <CardContent>
        <QueryView
          query={users}
          what="the users"
          loading={<Skeleton className="h-24 w-full" />}
          empty={<p className="text-muted-foreground text-sm">No users yet.</p>}
          isEmpty={(list) => !list?.length}
        >
          {(list) => {
            const props = { users: list, actor, onEdit: setEditing, onRemove: setRemoving };
            return wide ? <UsersTable {...props} /> : <UserCards {...props} />;
          }}
        </QueryView>
      </CardContent>
      <EditUserDialog user={editing} actor={actor} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog
        open={removing !== null}
        title={removing?.status === 'invited' ? 'Revoke invitation' : 'Remove user'}
        description={
          removing?.status === 'invited'
            ? `The invitation link sent to ${removing.email} will stop working.`
            : `${removing?.name || removing?.email} will be signed out everywhere and can no longer sign in. Their activity stays in the log.`
        }
        pending={remove.isPending}
        confirmLabel={removing?.status === 'invited' ? 'Revoke' : 'Remove'}
        pendingLabel="Removing..."
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      />
    </Card>
  );
}

interface ListProps {
  users: ClientUser[];
  actor: SessionUser;
  onEdit: (user: ClientUser) => void;
  onRemove: (user: ClientUser) => void;
}

function displayName(user: ClientUser, actor: SessionUser): string {
  const name = user.name || 'Not yet named';
  return user.id === actor.id ? `${name} (you)` : name;
}

function UsersTable({ users, actor, onEdit, onRemove }: ListProps) {
  return (
    <Table scrollLabel="Users, scrollable">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Extra permissions</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Last sign-in</TableHead>
          <TableHead>Two-factor</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => (
          <TableRow key={user.id} data-testid="user-row">
            <TableCell>
              <div className={cn('font-medium', !user.name && 'text-muted-foreground italic')}>
                {displayName(user, actor)}
              </div>
              <div className="text-muted-foreground text-xs">{user.email}</div>
            </TableCell>
            <TableCell>{ROLE_LABELS[user.role]}</TableCell>
            <TableCell className="whitespace-normal">{extrasShown(user.role, user.permissions)}</TableCell>
            <TableCell>
              <StatusBadge status={user.status} />
            </TableCell>
            <TableCell className="whitespace-normal">{lastSignInLabel(user.lastSignInAt)}</TableCell>
            <TableCell>{user.twoFactor ? 'On' : 'Off'}</TableCell>
            <TableCell>
              <UserActions user={user} self={user.id === actor.id} onEdit={onEdit} onRemove={onRemove} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function UserCards({ users, actor, onEdit, onRemove }: ListProps) {
  return (
    <ul className="grid gap-3" aria-label="Users">
      {users.map((user) => (
        <li key={user.id} className="grid gap-2 rounded-lg border p-3" data-testid="user-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <div className={cn('font-medium', !user.name && 'text-muted-foreground italic')}>
                {displayName(user, actor)}
              </div>
              <div className="break-all text-muted-foreground text-xs">{user.email}</div>
            </div>
            <StatusBadge status={user.status} />
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Role</dt>
            <dd>{ROLE_LABELS[user.role]}</dd>
            <dt className="text-muted-foreground">Extras</dt>
            <dd>{extrasShown(user.role, user.permissions)}</dd>
            <dt className="text-muted-foreground">Last sign-in</dt>
            <dd>{lastSignInLabel(user.lastSignInAt)}</dd>
            <dt className="text-muted-foreground">Two-factor</dt>
            <dd>{user.twoFactor ? 'On' : 'Off'}</dd>
          </dl>
          <UserActions user={user} self={user.id === actor.id} onEdit={onEdit} onRemove={onRemove} />
        </li>
      ))}
    </ul>
  );
}

/** The row's actions as plain buttons: few enough to show, and each names its user for screen readers. */
function UserActions({
  user,
  self,
  onEdit,
  onRemove,
}: {
  user: ClientUser;
  /** The signed-in person's own row: no deactivating or removing oneself (the server refuses it too). */
  self: boolean;
  onEdit: (user: ClientUser) => void;
  onRemove: (user: ClientUser) => void;
}) {
  const update = useUpdateUser();
  const resend = useResendInvite();
  const who = user.name || user.email;
  const setActive = (active: boolean) =>
    update.mutate(
      { id: user.id, active },
      {
        onSuccess: () =>
          toast({ title: active ? 'User reactivated' : 'User deactivated', description: user.email }),
        onError: (error) => failureToast(active ? 'Could not reactivate' : 'Could not deactivate', error),
      },
    );
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" variant="outline" onClick={() => onEdit(user)} aria-label={`Edit access of ${who}`}>
        Edit
      </Button>
      {user.status === 'invited' && (
        <Button
          size="sm"
          variant="outline"
          disabled={resend.isPending}
          aria-label={`Resend invitation to ${who}`}
          onClick={() =>
            resend.mutate(user.id, {
              onSuccess: () => toast({ title: 'Invitation sent again', description: user.email }),
              onError: (error) => failureToast('Could not resend the invitation', error),
            })
          }
        >
          Resend
        </Button>
      )}
      {user.status === 'active' && !self && (
        <Button
          size="sm"
          variant="outline"
          disabled={update.isPending}
          aria-label={`Deactivate ${who}`}
          onClick={() => setActive(false)}
        >
          Deactivate
        </Button>
      )}
      {user.status === 'deactivated' && (
        <Button
          size="sm"
          variant="outline"
          disabled={update.isPending}
          aria-label={`Reactivate ${who}`}
          onClick={() => setActive(true)}
        >
          Reactivate
        </Button>
      )}
      {!self && (
        <Button size="sm" variant="outline" onClick={() => onRemove(user)} aria-label={`Remove ${who}`}>
          Remove
        </Button>
      )}
    </div>
  );
}
