/**
 * The admin console for an admin who must use two-factor sign-in and has not set it up (the
 * agency's rule): only the set-up, and a way out; the server refuses everything else.
 */
import { LogOut } from 'lucide-react';
import { BrandMark } from '../../components/brand-mark';
import { TwoFactorCard } from '../../components/two-factor/two-factor-card';
import { Button } from '../../components/ui/button';
import { useAdminLogout } from '../../lib/session';

export function AdminTwoFactorRequired() {
  const logout = useAdminLogout();
  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <div className="min-w-0">
            <BrandMark className="mb-2" />
            <h1 className="font-bold text-2xl tracking-tight">Admin Dashboard</h1>
          </div>
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut /> Logout
          </Button>
        </div>
      </header>
      <main className="mx-auto grid max-w-3xl gap-6 px-4 py-6 sm:px-6">
        <TwoFactorCard api="/api/admin/2fa" />
      </main>
    </div>
  );
}
