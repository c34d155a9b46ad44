/**
 * The admin's view of one client (SPEC §2 "Admin client view"): a header naming the client
 * with an "Admin View" badge, the client information, users, privacy and quality thresholds
 * cards around the calls workspace, reading the admin endpoints for this client, with the search always shown above the
 * call log.
 */
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type AdminClientListItem, clientDisplayName } from '../../../contract/admin';
import { BrandMark } from '../../components/brand-mark';
import { CallsWorkspace } from '../../components/calls/calls-workspace';
import { CopyField } from '../../components/copy-field';
import { PageLoading } from '../../components/page-loading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { ApiError } from '../../lib/api';
import { adminCallSource } from '../calls/call-source';
import { ClientInformationCard } from './client-information-card';
import { ClientPrivacyCard } from './client-privacy-card';
import { ClientQualityCard } from './client-quality-card';
import { ClientUsersCard } from './client-users-card';
import { useAdminClientData } from './queries';

const ADMIN_EMPTY_CALLS_TEXT =
  'No call logs found for this client. Calls appear here when they reach the client’s webhook or after Sync All Clients.';

export function AdminClientView({ clientId }: { clientId: string | undefined }) {
  const data = useAdminClientData(clientId);

  if (!clientId) {
    return (
      <StatePanel title="Invalid Client Access">
        No client was selected. Open a client from the admin dashboard.
      </StatePanel>
    );
  }
  if (data.isPending) return <PageLoading label="Loading client..." />;
  if (data.isError || !data.data) {
    const notFound = data.error instanceof ApiError && data.error.status === 404;
    return (
      <StatePanel title="Error Loading Client">
        {notFound ? 'Client not found' : 'Failed to load client data'}
      </StatePanel>
    );
  }
  return <ClientView client={data.data.client} />;
}

function ClientView({ client }: { client: AdminClientListItem }) {
  return (
    <CallsWorkspace
      source={adminCallSource(client.id)}
      header={<ClientHeader client={client} />}
      banners={
        <div className="grid gap-6">
          <ClientInformationCard client={client} />
          <ClientUsersCard clientId={client.id} />
          <ClientPrivacyCard clientId={client.id} provider={client.provider} />
          <ClientQualityCard clientId={client.id} />
        </div>
      }
      search="always"
      timeZone={client.timezone}
      emptyText={ADMIN_EMPTY_CALLS_TEXT}
    />
  );
}

function ClientHeader({ client }: { client: AdminClientListItem }) {
  return (
    <header className="border-b bg-card">
      <div className="mx-auto grid max-w-7xl gap-4 px-4 py-4 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="ghost" size="sm" asChild className="-ml-2">
            <Link href="/admin">
              <ArrowLeft /> Back to Admin Dashboard
            </Link>
          </Button>
          <div className="flex min-w-0 items-center gap-3">
            <BrandMark />
            <Badge className="gap-1">
              <ShieldCheck /> Admin View
            </Badge>
          </div>
        </div>
        <div className="grid gap-1">
          <h1 className="break-words font-bold text-2xl tracking-tight">{clientDisplayName(client)}</h1>
          <p className="break-all text-muted-foreground text-sm">{client.email}</p>
          {client.companyName && <p className="text-sm">{client.companyName}</p>}
          <p className="text-muted-foreground text-xs">
            Client ID: <span className="break-all font-mono">{client.id}</span>
          </p>
        </div>
        <div className="max-w-2xl">
          <CopyField id="admin-view-webhook-url" label="Webhook URL" value={client.webhookUrl} />
        </div>
      </div>
    </header>
  );
}

function StatePanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-background px-4">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 text-center">
          <h1 className="font-semibold text-xl">{title}</h1>
          <p className="text-muted-foreground">{children}</p>
          <div>
            <Button asChild>
              <Link href="/admin">Back to Admin Dashboard</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
