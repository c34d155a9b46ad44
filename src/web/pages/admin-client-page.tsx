/** /admin/client/{clientId}: one client's dashboard as an admin sees it (SPEC §2), for admins only. */
import { useState } from 'react';
import { useParams } from 'wouter';
import { PageLoading } from '../components/page-loading';
import { AdminClientView } from '../features/admin/admin-client-view';
import { RequireAdmin } from '../features/auth/require-admin';
import { adminCallSource } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { usePageTitle } from '../lib/use-page-title';

export default function AdminClientPage() {
  usePageTitle('Client');
  const { clientId } = useParams<{ clientId: string }>();
  // The client's header, team and first screen in one read, beside the session check (issue 41).
  const [source] = useState(() => (clientId ? adminCallSource(clientId) : null));
  const firstScreen = useFirstScreen(source);
  return (
    <RequireAdmin>
      {firstScreen.settled ? (
        <AdminClientView clientId={clientId} />
      ) : (
        <PageLoading label="Loading client..." />
      )}
    </RequireAdmin>
  );
}
