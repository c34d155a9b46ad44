/**
 * The Client Management tab: search over the client list and the row actions (open the
 * client's dashboard, generate credentials, edit, delete) with their dialogs.
 */
import { useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { type AdminClientListItem, clientName } from '../../../contract/admin';
import { QueryView } from '../../components/query-view';
import { SearchField } from '../../components/search-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { failureToast } from '../../lib/failure-toast';
import { filterClients } from './client-search';
import { ClientTable } from './client-table';
import {
  ConfirmCredentialsDialog,
  type IssuedCredentials,
  IssuedCredentialsDialog,
} from './credentials-dialogs';
import { DeleteClientDialog, type DeleteTarget } from './delete-client-dialog';
import { EditClientDialog } from './edit-client-dialog';
import { useGenerateCredentials } from './mutations';
import { clientDataQuery, useAdminClients } from './queries';

export function ClientManagement() {
  const clients = useAdminClients();
  const [search, setSearch] = useState('');
  const [editId, setEditId] = useState<string | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  const credentials = useGenerateCredentials();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const closeEdit = useCallback(() => setEditId(null), []);
  const [confirmCredentials, setConfirmCredentials] = useState<AdminClientListItem | null>(null);
  const [issued, setIssued] = useState<IssuedCredentials | null>(null);

  async function openClient(client: AdminClientListItem) {
    try {
      await queryClient.fetchQuery(clientDataQuery(client.id));
      navigate(`/admin/client/${encodeURIComponent(client.id)}`);
    } catch (error) {
      failureToast('Cannot access client dashboard', error);
    }
  }

  function generateCredentials(client: AdminClientListItem) {
    credentials.mutate(client.id, {
      onSuccess: ({ email, temporaryPassword }) => {
        setConfirmCredentials(null);
        setIssued({ name: clientName(client), email, temporaryPassword });
      },
      onError: (error) => {
        setConfirmCredentials(null);
        failureToast('Failed to generate credentials', error);
      },
    });
  }

  const visible = filterClients(clients.data ?? [], search);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Client Management</CardTitle>
        <CardDescription>Search, open, edit and remove client accounts.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-3 sm:px-6">
        <SearchField
          aria-label="Search clients"
          placeholder="Search company, email or name..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <QueryView
          query={clients}
          what="the clients"
          loading={<TableSkeleton />}
          isEmpty={(data) => !data || data.length === 0}
          empty={
            <div className="flex flex-col items-center gap-2 py-10 text-center text-muted-foreground text-sm">
              <UserPlus className="size-8" />
              <p>No clients yet. Click “Create Client” to onboard your first client.</p>
            </div>
          }
        >
          {() =>
            visible.length === 0 ? (
              <p className="py-10 text-center text-muted-foreground text-sm">
                No clients match “{search.trim()}”.
              </p>
            ) : (
              <ClientTable
                clients={visible}
                actions={{
                  onOpen: openClient,
                  onCredentials: setConfirmCredentials,
                  onEdit: (client) => setEditId(client.id),
                  onDelete: (client) => setDeleteTarget({ id: client.id, name: clientName(client) }),
                  busyId: credentials.isPending ? credentials.variables : null,
                }}
              />
            )
          }
        </QueryView>
      </CardContent>
      <EditClientDialog clientId={editId} onClose={closeEdit} />
      <DeleteClientDialog target={deleteTarget} onClose={() => setDeleteTarget(null)} />
      <ConfirmCredentialsDialog
        target={confirmCredentials}
        pending={credentials.isPending}
        onCancel={() => setConfirmCredentials(null)}
        onConfirm={generateCredentials}
      />
      <IssuedCredentialsDialog issued={issued} onClose={() => setIssued(null)} />
    </Card>
  );
}

function TableSkeleton() {
  return (
    <div className="grid gap-3" role="status" aria-label="Loading clients">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </div>
  );
}
