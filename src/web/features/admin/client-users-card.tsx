/**
 * A client's users in the admin client view: name, e-mail, role, status, last sign-in,
 * two-factor; the agency can send an invited user's invitation again, e-mail an active user a link
 * to choose a new password (their sessions end), and turn off a user's two-factor sign-in.
 */
import { Users } from 'lucide-react';
import { useState } from 'react';
import type { ClientUser } from '../../../contract/teams';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { QueryView } from '../../components/query-view';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { type AdminUserAction, useAdminClientUsers, useAdminUserAction } from './client-users-queries';

const ROLE_LABELS: Record<ClientUser['role'], string> = {
  owner: 'Owner',
  manager: 'Manager',
  viewer: 'Viewer',
};
const STATUS_LABELS: Record<ClientUser['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  deactivated: 'Deactivated',
};

const CONFIRM: Record<
  Exclude<AdminUserAction, 'resend-invite'>,
  { title: string; body: string; label: string }
> = {
  'reset-password': {
    title: 'Send a new password link',
    body: 'They get an e-mail with a single-use link to choose a new password, valid 24 hours, and are signed out everywhere now. Their current password works until the link is used.',
    label: 'Send link',
  },
  'reset-2fa': {
    title: 'Reset two-factor sign-in',
    body: 'Two-factor sign-in is turned off for them and they are signed out everywhere; they can turn it on again after signing in.',
    label: 'Reset two-factor',
  },
};

const DONE: Record<AdminUserAction, string> = {
  'resend-invite': 'Invitation sent again',
  'reset-password': 'Password link sent',
  'reset-2fa': 'Two-factor sign-in reset',
};

function lastSignIn(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';
}

export function ClientUsersCard({ clientId }: { clientId: string }) {
  const users = useAdminClientUsers(clientId);
  const act = useAdminUserAction(clientId);
  const [confirming, setConfirming] = useState<{
    user: ClientUser;
    action: 'reset-password' | 'reset-2fa';
  } | null>(null);

  const run = (user: ClientUser, action: AdminUserAction) =>
    act.mutate(
      { userId: user.id, action },
      {
        onSuccess: () => {
          toast({ title: DONE[action], description: user.email });
          setConfirming(null);
        },
        onError: (error) => {
          failureToast(`${DONE[action].split(' ')[0]} failed`, error);
          setConfirming(null);
        },
      },
    );

  return (
    <Card data-testid="admin-client-users">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users className="size-4" aria-hidden="true" />
          <h2>Users</h2>
        </CardTitle>
        <CardDescription>The people who sign in to this client’s dashboard.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryView
          query={users}
          what="the client’s users"
          // One user's box (most clients have just their owner), so the cards below keep their place.
          loading={
            <div className="grid gap-3 md:grid-cols-2">
              <Skeleton className="h-44 w-full" />
            </div>
          }
          empty={<p className="text-muted-foreground text-sm">No users yet (the client has no login).</p>}
          isEmpty={(list) => !list?.length}
        >
          {(list) => (
            <ul className="grid gap-3 md:grid-cols-2" aria-label="Client users">
              {list.map((user) => {
                const who = user.name || user.email;
                return (
                  <li key={user.id} className="grid gap-2 rounded-lg border p-3 text-sm">
                    <div className="flex items-start justify-between gap-2">
                      <div className="min-w-0">
                        <div className="font-medium">{user.name || 'Not yet named'}</div>
                        <div className="break-all text-muted-foreground text-xs">{user.email}</div>
                      </div>
                      <Badge variant={user.status === 'active' ? 'default' : 'secondary'}>
                        {STATUS_LABELS[user.status]}
                      </Badge>
                    </div>
                    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                      <dt className="text-muted-foreground">Role</dt>
                      <dd>{ROLE_LABELS[user.role]}</dd>
                      <dt className="text-muted-foreground">Last sign-in</dt>
                      <dd>{lastSignIn(user.lastSignInAt)}</dd>
                      <dt className="text-muted-foreground">Two-factor</dt>
                      <dd>{user.twoFactor ? 'On' : 'Off'}</dd>
                    </dl>
                    <div className="flex flex-wrap gap-2">
                      {user.status === 'invited' && (
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={act.isPending}
                          aria-label={`Resend invitation to ${who}`}
                          onClick={() => run(user, 'resend-invite')}
                        >
                          Resend invitation
                        </Button>
                      )}
                      {user.status === 'active' && (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Reset password of ${who}`}
                          onClick={() => setConfirming({ user, action: 'reset-password' })}
                        >
                          Reset password
                        </Button>
                      )}
                      {user.twoFactor && (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Reset two-factor of ${who}`}
                          onClick={() => setConfirming({ user, action: 'reset-2fa' })}
                        >
                          Reset two-factor
                        </Button>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </QueryView>
      </CardContent>
      <ConfirmDeleteDialog
        open={confirming !== null}
        title={confirming ? CONFIRM[confirming.action].title : ''}
        description={confirming ? `${confirming.user.email}: ${CONFIRM[confirming.action].body}` : ''}
        pending={act.isPending}
        confirmLabel={confirming ? CONFIRM[confirming.action].label : ''}
        pendingLabel="Sending..."
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && run(confirming.user, confirming.action)}
      />
    </Card>
  );
}
