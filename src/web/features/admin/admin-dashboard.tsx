/**
 * The admin dashboard body (SPEC §2 "Admin dashboard"): welcome line and the header actions,
 * the four stat cards, and the tabs: client management, the portfolio's analytics and the
 * support tools, the brand and the privacy defaults.
 */
import { LogOut, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { AdminSession } from '../../../contract/auth';
import { BRAND_TEXTS } from '../../../contract/brand';
import { BrandMark } from '../../components/brand-mark';
import { useTwoFactorStatus } from '../../components/two-factor/two-factor-queries';
import { Button } from '../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { failureToast } from '../../lib/failure-toast';
import { useAdminLogout } from '../../lib/session';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { AdminStatsCards } from './admin-stats-cards';
import { AdminTwoFactorRequired } from './admin-two-factor-required';
import { AllCallsExport } from './all-calls-export';
import { AnalyticsTab } from './analytics-tab';
import { BrandTab } from './brand/brand-tab';
import { ClientManagement } from './client-management';
import { CreateClientWizard } from './create-client-wizard';
import { useSyncAllClients } from './mutations';
import { PrivacyDefaultsTab } from './privacy/privacy-defaults-tab';
import { SupportTab } from './support-tab';

export function AdminDashboard({ admin }: { admin: AdminSession }) {
  const [wizardOpen, setWizardOpen] = useState(false);
  const [tab, setTab] = useState('clients');
  const [supportClient, setSupportClient] = useState('');
  // "Support tools" on a client at risk: the Support Tools tab, on that client.
  const openSupport = (clientId: string) => {
    setSupportClient(clientId);
    setTab('support');
  };
  const logout = useAdminLogout();
  const syncAll = useSyncAllClients();
  // The agency requires two-factor sign-in and this admin has none: only the set-up.
  const twoFactor = useTwoFactorStatus('/api/admin/2fa');
  if (twoFactor.data?.required && !twoFactor.data.enabled) return <AdminTwoFactorRequired />;

  function sync() {
    syncAll.mutate(undefined, {
      onSuccess: (result) =>
        result.success
          ? toast({ title: 'All client data synced successfully', description: result.message })
          : toast({
              variant: 'destructive',
              title: 'Failed to sync client data',
              description: result.message,
            }),
      onError: (error) => failureToast('Failed to sync client data', error),
    });
  }

  return (
    <div className="min-h-screen bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div className="min-w-0">
            <BrandMark className="mb-2" />
            <h1 className="font-bold text-2xl tracking-tight">Admin Dashboard</h1>
            <p className="text-muted-foreground text-sm">Welcome back, {admin.name}</p>
          </div>
          <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
            <Button onClick={() => setWizardOpen(true)} className="col-span-2 sm:col-span-1">
              <Plus /> Create Client
            </Button>
            <Button variant="outline" onClick={sync} disabled={syncAll.isPending}>
              <RefreshCw className={cn(syncAll.isPending && 'animate-spin')} />
              {syncAll.isPending ? 'Syncing...' : 'Sync All Clients'}
            </Button>
            <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut /> Logout
            </Button>
          </div>
        </div>
      </header>

      <main className="mx-auto grid max-w-7xl gap-6 px-4 py-6 sm:px-6">
        <AdminStatsCards />
        <Tabs value={tab} onValueChange={setTab} className="min-w-0 gap-4">
          {/* Rows of two on a phone: five tabs side by side are wider than its screen. */}
          <TabsList className="grid h-auto w-full grid-cols-2 sm:flex sm:h-9 sm:w-fit">
            <TabsTrigger value="clients">Client Management</TabsTrigger>
            <TabsTrigger value="analytics">Analytics</TabsTrigger>
            <TabsTrigger value="support">Support Tools</TabsTrigger>
            <TabsTrigger value="brand">{BRAND_TEXTS.tab}</TabsTrigger>
            <TabsTrigger value="privacy">Privacy</TabsTrigger>
          </TabsList>
          <TabsContent value="clients" className="grid gap-6">
            <ClientManagement />
            <AllCallsExport />
          </TabsContent>
          <TabsContent value="analytics">
            <AnalyticsTab onSupport={openSupport} />
          </TabsContent>
          <TabsContent value="support">
            <SupportTab clientId={supportClient} onClientChange={setSupportClient} />
          </TabsContent>
          <TabsContent value="brand">
            <BrandTab />
          </TabsContent>
          <TabsContent value="privacy">
            <PrivacyDefaultsTab />
          </TabsContent>
        </Tabs>
      </main>

      <CreateClientWizard open={wizardOpen} onOpenChange={setWizardOpen} />
    </div>
  );
}
