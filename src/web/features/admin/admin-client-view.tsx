/**
 * The admin's view of one client (SPEC §2 "Admin client view"): a header naming the client
 * with an "Admin View" badge, the client information, users, privacy and quality thresholds
 * cards around the calls workspace, reading the admin endpoints for this client, with the search always shown above the
 * call log.
 */
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { type AdminClientListItem, clientDisplayName } from '../../../contract/admin';
import { BrandMark } from '../../components/brand-mark';
import { CopyField } from '../../components/copy-field';
import { PageLoading } from '../../components/page-loading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError } from '../../lib/api';
import { useFirstScreenPending } from '../../lib/first-screen-pending';
import { adminCallSource } from '../calls/call-source';
import { CallsWorkspace } from '../calls/calls-workspace';
import { ClientInformationCard } from './client-information-card';
import { ClientPrivacyCard } from './client-privacy-card';
import { ClientQualityCard } from './client-quality-card';
import { ClientUsersCard } from './client-users-card';
import { useAdminClientData } from './queries';

const ADMIN_EMPTY_CALLS_TEXT =
  'No call logs found for this client. Calls appear here when they reach the client’s webhook or after Sync All Clients.';

export function AdminClientView({ clientId }: { clientId: string | undefined }) {
  const data = useAdminClientData(clientId);
  const firstScreenPending = useFirstScreenPending();

  if (!clientId) {
    return (
      <StatePanel title="Invalid Client Access">
        No client was selected. Open a client from the admin dashboard.
      </StatePanel>
    );
  }
  if (data.isPending) {
    // The first screen's read brings the client: its view shows meanwhile, each part loading.
    if (firstScreenPending) return <ClientView clientId={clientId} client={null} />;
    return <PageLoading label="Loading client..." />;
  }
  if (data.isError || !data.data) {
    const notFound = data.error instanceof ApiError && data.error.status === 404;
    return (
      <StatePanel title="Error Loading Client">
        {notFound ? 'Client not found' : 'Failed to load client data'}
      </StatePanel>
    );
  }
  return <ClientView clientId={data.data.client.id} client={data.data.client} />;
}

/** `client` null: still being read (the first screen's read), its header and card loading. */
function ClientView({ clientId, client }: { clientId: string; client: AdminClientListItem | null }) {
  const [source] = useState(() => adminCallSource(clientId));
  return (
    <CallsWorkspace
      source={source}
      header={<ClientHeader clientId={clientId} client={client} />}
      banners={
        <div className="grid gap-6">
          <ClientInformationCard client={client} />
          <ClientUsersCard clientId={clientId} />
          <ClientPrivacyCard clientId={clientId} provider={client?.provider} />
          <ClientQualityCard clientId={clientId} />
        </div>
      }
      search="always"
      timeZone={client?.timezone}
      emptyText={ADMIN_EMPTY_CALLS_TEXT}
    />
  );
}

/** `client` null: still being read; what it will say shows as placeholders of its lines' height. */
function ClientHeader({ clientId, client }: { clientId: string; client: AdminClientListItem | null }) {
  return (
    <header className="border-b bg-card" aria-busy={client === null}>
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
          <h1 className="break-words font-bold text-2xl tracking-tight">
            {client ? (
              clientDisplayName(client)
            ) : (
              <>
                <span className="sr-only">Loading client...</span>
                <Skeleton className="my-1 h-6 w-48" />
              </>
            )}
          </h1>
          {client ? (
            <>
              <p className="break-all text-muted-foreground text-sm">{client.email}</p>
              {client.companyName && <p className="text-sm">{client.companyName}</p>}
            </>
          ) : (
            <>
              <Skeleton className="my-0.5 h-4 w-56" />
              <Skeleton className="my-0.5 h-4 w-36" />
            </>
          )}
          <p className="text-muted-foreground text-xs">
            Client ID: <span className="break-all font-mono">{clientId}</span>
          </p>
        </div>
        <div className="max-w-2xl">
          {client ? (
            <CopyField id="admin-view-webhook-url" label="Webhook URL" value={client.webhookUrl} />
          ) : (
            <div className="grid gap-1.5">
              <span className="font-medium text-sm leading-none">Webhook URL</span>
              <div className="flex items-start gap-2">
                {/* The URL (origin, path and a 32-character token) takes three lines on a phone, two on a small tablet. */}
                <Skeleton className="h-[66px] grow sm:h-[50px] md:h-9" />
                <Skeleton className="h-9 w-[86px] shrink-0" />
              </div>
            </div>
          )}
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
