/**
 * The Client Management tab: search over the client list and the row actions (open the
 * client's dashboard, generate credentials, edit, delete) with their dialogs and toasts.
 */
import { useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { type AdminClientListItem, CREDENTIALS_TOAST_MS, clientName } from '../../../contract/admin';
import { QueryView } from '../../components/query-view';
import { SearchField } from '../../components/search-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { ToastAction } from '../../components/ui/toast';
import { copyText } from '../../lib/copy-text';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { filterClients } from './client-search';
import { ClientTable } from './client-table';
import { type DeleteTarget, DeleteClientDialog } from './delete-client-dialog';
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
        toast({
          title: 'Login Credentials Generated',
          duration: CREDENTIALS_TOAST_MS,
          description: (
            <span className="grid gap-0.5" data-testid="credentials">
              <span>
                Email: <span className="font-mono">{email}</span>
              </span>
              <span>
                Temporary password:{' '}
                <span className="font-mono" data-testid="temporary-password">
                  {temporaryPassword}
                </span>
              </span>
            </span>
          ),
          action: (
            <ToastAction
              altText="Copy the credentials"
              onClick={() => void copyText(`Email: ${email}\nTemporary password: ${temporaryPassword}`)}
            >
              Copy
            </ToastAction>
          ),
        });
      },
      onError: (error) => failureToast('Failed to generate credentials', error),
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
                  onCredentials: generateCredentials,
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
