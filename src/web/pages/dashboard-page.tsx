/** /dashboard: the client dashboard, for a logged-in client only (others go to /). */
import { RequireClient } from '../features/auth/require-client';
import { CLIENT_CALL_SOURCE } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { ClientDashboard } from '../features/dashboard/client-dashboard';
import { FirstScreenPending } from '../lib/first-screen-pending';
import { usePageTitle } from '../lib/use-page-title';

export default function DashboardPage() {
  usePageTitle('Dashboard');
  // The first screen in one read, beside the session check. The dashboard shows as
  // soon as the session has a client, its parts in their loading states until the read is in.
  const firstScreen = useFirstScreen(CLIENT_CALL_SOURCE);
  return (
    <FirstScreenPending value={!firstScreen.settled}>
      <RequireClient>{(client) => <ClientDashboard client={client} />}</RequireClient>
    </FirstScreenPending>
  );
}
