/** /admin/client/{clientId}: one client's dashboard as an admin sees it (SPEC §2), for admins only. */
import { useParams } from 'wouter';
import { AdminClientView } from '../features/admin/admin-client-view';
import { RequireAdmin } from '../features/auth/require-admin';
import { usePageTitle } from '../lib/use-page-title';

export default function AdminClientPage() {
  usePageTitle('Client');
  const { clientId } = useParams<{ clientId: string }>();
  return (
    <RequireAdmin>
      <AdminClientView clientId={clientId} />
    </RequireAdmin>
  );
}
