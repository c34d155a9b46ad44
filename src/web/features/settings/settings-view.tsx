/**
 * /settings (SPEC §2 "Client settings"):
 * the tabs chosen by `?tab=`; Back to Dashboard; the subscription tab shows the outcome of a
 * checkout from `?success=true`.
 */
import { ArrowLeft, Bell, CreditCard, EyeOff, History, Shield, Target, User, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { ClientSession } from '../../../contract/auth';
import { BrandMark } from '../../components/brand-mark';
import { PageLoading } from '../../components/page-loading';
import { Button } from '../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { can, useSessionUser } from '../../lib/permissions';
import { cn } from '../../lib/utils';
import { CLIENT_QUALITY_THRESHOLDS } from '../calls/call-source';
import { QualityThresholdsCard } from '../calls/quality/quality-thresholds-card';
import { AccountSettingsForm } from './account-form';
import { ActivityTab } from './activity-tab';
import { NotificationsForm } from './notifications-form';
import { OutcomesTab } from './outcomes-tab';
import { PrivacyTab } from './privacy-tab';
import { SecurityTab } from './security-tab';
import { allowedTabs, missingTabNote, openedTab, type SettingsTab } from './settings-tabs';
import { SubscriptionTab } from './subscription-tab';
import { UsersTab } from './users-tab';
import { WebhookEndpointCard } from './webhook-endpoint-card';

const TABS: { value: SettingsTab; label: string; icon: typeof User }[] = [
  { value: 'account', label: 'Account', icon: User },
  { value: 'subscription', label: 'Subscription', icon: CreditCard },
  { value: 'outcomes', label: 'Outcomes', icon: Target },
  { value: 'notifications', label: 'Notifications', icon: Bell },
  { value: 'security', label: 'Security', icon: Shield },
  { value: 'privacy', label: 'Privacy', icon: EyeOff },
  { value: 'users', label: 'Users', icon: Users },
  { value: 'activity', label: 'Activity', icon: History },
];

export function SettingsView({ client }: { client: ClientSession }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const user = useSessionUser();
  // Right after login the cached session has no user until its refetch: wait rather than flash
  // a narrower set of tabs at an Owner.
  if (!user) return <PageLoading />;
  const allowed = allowedTabs(user);
  const tab = openedTab(params.get('tab'), allowed);
  const shown = TABS.filter(({ value }) => allowed.includes(value));
  // A tab the role lacks, opened by its URL, says so instead of showing a form the server refuses.
  const guarded = (value: SettingsTab, content: ReactNode) =>
    allowed.includes(value) ? content : <MissingPermissionNote tab={value} />;

  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <BrandMark className="mb-2" />
          <h1 className="font-bold text-2xl tracking-tight sm:text-3xl">Settings</h1>
          <p className="text-muted-foreground text-sm">
            Manage your account, subscription, outcomes, notifications, security and privacy.
          </p>
        </div>
        <Button variant="outline" onClick={() => navigate('/dashboard')} className="w-full sm:w-auto">
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </Button>
      </header>

      <Tabs
        value={tab}
        onValueChange={(next) => navigate(`/settings?tab=${next}`, { replace: true })}
        className="gap-6"
      >
        <TabsList
          className={cn('grid h-auto w-full grid-cols-2 gap-1 sm:grid-cols-4', LG_COLUMNS[shown.length])}
        >
          {shown.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value} className="py-1.5">
              <Icon aria-hidden="true" />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="account">
          {guarded('account', <AccountSettingsForm key={client.id} client={client} />)}
        </TabsContent>
        <TabsContent value="subscription">
          {guarded(
            'subscription',
            <SubscriptionTab success={params.get('success') === 'true'} paypal={params.get('paypal')} />,
          )}
        </TabsContent>
        <TabsContent value="outcomes" className="grid gap-6">
          {guarded(
            'outcomes',
            <>
              <OutcomesTab />
              <QualityThresholdsCard api={CLIENT_QUALITY_THRESHOLDS} />
            </>,
          )}
        </TabsContent>
        <TabsContent value="notifications" className="grid gap-6">
          <NotificationsForm />
          {can(user, 'integrations') && <WebhookEndpointCard />}
        </TabsContent>
        <TabsContent value="security">
          <SecurityTab client={client} />
        </TabsContent>
        <TabsContent value="privacy">{guarded('privacy', <PrivacyTab client={client} />)}</TabsContent>
        <TabsContent value="users">{guarded('users', <UsersTab />)}</TabsContent>
        <TabsContent value="activity">{guarded('activity', <ActivityTab />)}</TabsContent>
      </Tabs>
    </main>
  );
}

/** lg: one column per tab shown (an Owner's eight; fewer for other roles). */
const LG_COLUMNS: Record<number, string> = {
  1: 'lg:grid-cols-1',
  2: 'lg:grid-cols-2',
  3: 'lg:grid-cols-3',
  4: 'lg:grid-cols-4',
  5: 'lg:grid-cols-5',
  6: 'lg:grid-cols-6',
  7: 'lg:grid-cols-7',
  8: 'lg:grid-cols-8',
};

function MissingPermissionNote({ tab }: { tab: SettingsTab }) {
  return (
    <p
      role="note"
      className="rounded-lg border bg-muted/40 p-4 text-muted-foreground text-sm"
      data-testid="missing-permission"
    >
      {missingTabNote(tab)}
    </p>
  );
}
