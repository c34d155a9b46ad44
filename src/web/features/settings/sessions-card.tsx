/**
 * Settings › Security › Sessions: where the signed-in person is signed in (this device
 * marked), the device, the address and when each was last seen; sign out any other one, or all
 * the others at once.
 */
import { LogOut, MonitorSmartphone } from 'lucide-react';
import type { UserSession } from '../../../contract/sessions';
import { PendingButton } from '../../components/pending-button';
import { QueryView } from '../../components/query-view';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { timeAgo } from './relative-time';
import { useEndOtherSessions, useEndSession, useMySessions } from './sessions-queries';

/** This device on top, then the others as the server orders them (the most recently seen first). */
const thisDeviceFirst = (list: UserSession[]) =>
  [...list].sort((a, b) => Number(b.current) - Number(a.current));

export function SessionsCard() {
  const sessions = useMySessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const signOut = (session: UserSession) =>
    endOne.mutate(session.id, {
      onSuccess: () => toast({ title: 'Session signed out', description: session.device }),
      onError: (error) => failureToast('Could not sign out that session', error),
    });
  const signOutOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        toast({
          title: 'Signed out of other sessions',
          description: `${ended} session${ended === 1 ? '' : 's'} ended.`,
        }),
      onError: (error) => failureToast('Could not sign out other sessions', error),
    });

  return (
    <Card data-testid="sessions-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MonitorSmartphone className="size-4" aria-hidden="true" />
          Sessions
        </CardTitle>
        <CardDescription>
          Where you are signed in. Sign out of any device you do not recognise.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryView
          query={sessions}
          what="your sessions"
          loading={<Skeleton className="h-24 w-full" />}
          empty={<p className="text-muted-foreground text-sm">No sessions.</p>}
          isEmpty={(data) => !data || data.length === 0}
        >
          {(list) => (
            <ul className="divide-y rounded-md border" aria-label="Sessions">
              {thisDeviceFirst(list).map((session) => (
                <li
                  key={session.id}
                  className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
                  data-testid="session-row"
                >
                  <div className="grid gap-0.5">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-sm">
                      {session.device}
                      {session.current && <Badge variant="secondary">This device</Badge>}
                    </p>
                    <p className="text-muted-foreground text-xs">
                      {session.ip ?? 'Unknown address'} ·{' '}
                      {session.current
                        ? 'Active now'
                        : `Last seen ${timeAgo(session.lastSeenAt).toLowerCase()}`}
                    </p>
                  </div>
                  {!session.current && (
                    <PendingButton
                      variant="outline"
                      size="sm"
                      pending={endOne.isPending && endOne.variables === session.id}
                      pendingLabel="Signing out..."
                      onClick={() => signOut(session)}
                      aria-label={`Sign out ${session.device}, last seen ${timeAgo(session.lastSeenAt).toLowerCase()}`}
                    >
                      Sign out
                    </PendingButton>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryView>
        {others > 0 && (
          <div>
            <PendingButton
              variant="outline"
              pending={endOthers.isPending}
              pendingLabel="Signing out..."
              icon={<LogOut aria-hidden="true" />}
              onClick={signOutOthers}
            >
              Sign out all other sessions
            </PendingButton>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
