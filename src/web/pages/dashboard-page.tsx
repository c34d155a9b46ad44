/** /dashboard: the client dashboard, for a logged-in client only (others go to /). */
import { RequireClient } from '../features/auth/require-client';
import { ClientDashboard } from '../features/dashboard/client-dashboard';
import { usePageTitle } from '../lib/use-page-title';

export default function DashboardPage() {
  usePageTitle('Dashboard');
  return <RequireClient>{(client) => <ClientDashboard client={client} />}</RequireClient>;
}
