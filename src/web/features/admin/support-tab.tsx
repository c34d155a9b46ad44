/**
 * The console's Support Tools tab: for one client, the webhook delivery log with
 * Replay, the sync history with "Sync now", and a test call; for the agency, the audit log and the
 * admins.
 */
import { clientName } from '../../../contract/admin';
import { NativeSelect } from '../../components/native-select';
import { TwoFactorCard } from '../../components/two-factor/two-factor-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { AdminsCard } from './admins-card';
import { AuditLogCard } from './audit-log-card';
import { DeliveryLogCard } from './delivery-log-card';
import { useAdminClients } from './queries';
import { SyncHistoryCard } from './sync-history-card';
import { TestCallCard } from './test-call-card';

export function SupportTab({
  clientId,
  onClientChange,
}: {
  clientId: string;
  onClientChange: (id: string) => void;
}) {
  const clients = useAdminClients();
  const client = clients.data?.find((c) => c.id === clientId);

  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <Card>
        <CardHeader>
          <CardTitle>Client support</CardTitle>
          <CardDescription>
            Why a client's calls are missing: what reached its webhook, what its syncs found.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-1.5 sm:max-w-md">
          <Label htmlFor="support-client">Client</Label>
          <NativeSelect id="support-client" value={clientId} onChange={(e) => onClientChange(e.target.value)}>
            <option value="">Choose a client…</option>
            {(clients.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {clientName(c)} ({c.email})
              </option>
            ))}
          </NativeSelect>
        </CardContent>
      </Card>

      {client && (
        <>
          <DeliveryLogCard clientId={client.id} />
          <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
            <SyncHistoryCard clientId={client.id} hasKey={client.apiKeyStatus !== 'missing'} />
            <TestCallCard
              clientId={client.id}
              apiKeyStatus={client.apiKeyStatus}
              webhookUrl={client.webhookUrl}
            />
          </div>
        </>
      )}

      <AuditLogCard />
      <TwoFactorCard api="/api/admin/2fa" requireLabel="Require two-factor sign-in for every administrator" />
      <AdminsCard />
    </div>
  );
}
