/** /admin: the admin dashboard, for admins only (SPEC §2, §6). */
import { AdminDashboard } from '../features/admin/admin-dashboard';
import { RequireAdmin } from '../features/auth/require-admin';
import { usePageTitle } from '../lib/use-page-title';

export default function AdminPage() {
  usePageTitle('Admin');
  return <RequireAdmin>{(admin) => <AdminDashboard admin={admin} />}</RequireAdmin>;
}
