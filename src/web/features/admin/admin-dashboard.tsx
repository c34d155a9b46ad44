/**
 * The admin dashboard body (SPEC §2 "Admin dashboard"): welcome line and the header actions,
 * the four stat cards, and the tabs with client management.
 */
import { BarChart3, LifeBuoy, LogOut, Plus, RefreshCw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { AdminSession } from '../../../contract/auth';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { failureToast } from '../../lib/failure-toast';
import { useAdminLogout } from '../../lib/session';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { AdminStatsCards } from './admin-stats-cards';
import { AllCallsExport } from './all-calls-export';
import { ClientManagement } from './client-management';
import { CreateClientWizard } from './create-client-wizard';
import { useSyncAllClients } from './mutations';

export function AdminDashboard({ admin }: { admin: AdminSession }) {
  const [wizardOpen, setWizardOpen] = useState(false);
  const logout = useAdminLogout();
  const syncAll = useSyncAllClients();

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
          <div>
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
        <Tabs defaultValue="clients" className="gap-4">
          <TabsList className="w-full sm:w-fit">
            <TabsTrigger value="clients">Client Management</TabsTrigger>
            <TabsTrigger value="analytics">Analytics</TabsTrigger>
            <TabsTrigger value="support">Support Tools</TabsTrigger>
          </TabsList>
          <TabsContent value="clients" className="grid gap-6">
            <ClientManagement />
            <AllCallsExport />
          </TabsContent>
          <TabsContent value="analytics">
            <ComingSoon
              icon={<BarChart3 />}
              title="Analytics"
              text="Cross-client analytics are coming soon."
            />
          </TabsContent>
          <TabsContent value="support">
            <ComingSoon icon={<LifeBuoy />} title="Support Tools" text="Support tools are coming soon." />
          </TabsContent>
        </Tabs>
      </main>

      <CreateClientWizard open={wizardOpen} onOpenChange={setWizardOpen} />
    </div>
  );
}

function ComingSoon({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <span className="rounded-full bg-muted p-3 text-muted-foreground [&_svg]:size-6">{icon}</span>
        <div className="flex items-center gap-2">
          <h2 className="font-semibold">{title}</h2>
          <Badge variant="secondary">coming soon</Badge>
        </div>
        <p className="text-muted-foreground text-sm">{text}</p>
      </CardContent>
    </Card>
  );
}
