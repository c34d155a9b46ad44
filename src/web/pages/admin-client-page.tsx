/** /admin/client/{clientId}: one client's dashboard as an admin sees it (SPEC §2), for admins only. */
import { useState } from 'react';
import { useParams } from 'wouter';
import { AdminClientView } from '../features/admin/admin-client-view';
import { RequireAdmin } from '../features/auth/require-admin';
import { adminCallSource } from '../features/calls/call-source';
import { useFirstScreen } from '../features/calls/first-screen';
import { FirstScreenPending } from '../lib/first-screen-pending';
import { usePageTitle } from '../lib/use-page-title';

export default function AdminClientPage() {
  usePageTitle('Client');
  const { clientId } = useParams<{ clientId: string }>();
  // The client's header, team and first screen in one read, beside the session check;
  // the view shows meanwhile with its parts in their loading states.
  const [source] = useState(() => (clientId ? adminCallSource(clientId) : null));
  const firstScreen = useFirstScreen(source);
  return (
    <RequireAdmin>
      <FirstScreenPending value={!firstScreen.settled}>
        <AdminClientView clientId={clientId} />
      </FirstScreenPending>
    </RequireAdmin>
  );
}
