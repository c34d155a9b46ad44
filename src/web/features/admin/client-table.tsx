/**
 * The admin's client list (SPEC §2 "Client Management"): name/company, e-mail, status, calls,
 * revenue, last activity or "Never", and the row actions. On narrow screens the secondary
 * columns fold into the first cell, so every row stays readable at 390 px.
 */
import { KeyRound, LogIn, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { type AdminClientListItem, clientDisplayName } from '../../../contract/admin';
import { formatCount, formatMoney } from '../../../contract/format';
import { Button } from '../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { ClientStatusPair } from './api-key-badge';

export interface ClientRowActions {
  onOpen: (client: AdminClientListItem) => void;
  onCredentials: (client: AdminClientListItem) => void;
  onEdit: (client: AdminClientListItem) => void;
  onDelete: (client: AdminClientListItem) => void;
  /** The client whose credentials are being generated, to disable its button. */
  busyId?: string | null;
}

const lastActivityFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

export function formatLastActivity(iso: string | null): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Never' : lastActivityFormat.format(date);
}

export function ClientTable({
  clients,
  actions,
}: {
  clients: AdminClientListItem[];
  actions: ClientRowActions;
}) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Client</TableHead>
          <TableHead className="hidden md:table-cell">Email</TableHead>
          <TableHead className="hidden sm:table-cell">Status</TableHead>
          <TableHead className="hidden text-right lg:table-cell">Calls</TableHead>
          <TableHead className="hidden text-right lg:table-cell">Revenue</TableHead>
          <TableHead className="hidden lg:table-cell">Last Activity</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {clients.map((client) => (
          <ClientRow key={client.id} client={client} actions={actions} />
        ))}
      </TableBody>
    </Table>
  );
}

function ClientRow({ client, actions }: { client: AdminClientListItem; actions: ClientRowActions }) {
  const name = clientDisplayName(client);
  return (
    <TableRow data-testid="client-row" data-client-id={client.id}>
      <TableCell className="w-full max-w-0 whitespace-normal md:w-auto md:max-w-none">
        <div className="min-w-0">
          <p className="truncate font-medium">{name}</p>
          <p className="truncate text-muted-foreground text-xs">{client.companyName || '—'}</p>
          <p className="truncate text-muted-foreground text-xs md:hidden">{client.email}</p>
          <div className="mt-1 sm:hidden">
            <ClientStatusPair isActive={client.isActive} apiKeyStatus={client.apiKeyStatus} />
          </div>
          <p className="mt-1 text-muted-foreground text-xs lg:hidden">
            {formatCount(client.totalCalls)} {client.totalCalls === 1 ? 'call' : 'calls'} ·{' '}
            {formatMoney(client.totalCost)} · {formatLastActivity(client.lastCallDate)}
          </p>
        </div>
      </TableCell>
      <TableCell className="hidden md:table-cell">{client.email}</TableCell>
      <TableCell className="hidden sm:table-cell">
        <ClientStatusPair isActive={client.isActive} apiKeyStatus={client.apiKeyStatus} />
      </TableCell>
      <TableCell className="hidden text-right tabular-nums lg:table-cell">
        {formatCount(client.totalCalls)}
      </TableCell>
      <TableCell className="hidden text-right tabular-nums lg:table-cell">
        {formatMoney(client.totalCost)}
      </TableCell>
      <TableCell className="hidden lg:table-cell">{formatLastActivity(client.lastCallDate)}</TableCell>
      <TableCell className="w-0">
        <div className="grid grid-cols-2 justify-end gap-1 sm:flex">
          <RowAction
            label={`Login as ${name}`}
            title="Login as client"
            onClick={() => actions.onOpen(client)}
          >
            <LogIn />
          </RowAction>
          <RowAction
            label={`Generate login credentials for ${name}`}
            title="Generate login credentials"
            onClick={() => actions.onCredentials(client)}
            disabled={actions.busyId === client.id}
          >
            <KeyRound />
          </RowAction>
          <RowAction label={`Edit ${name}`} title="Edit client" onClick={() => actions.onEdit(client)}>
            <Pencil />
          </RowAction>
          <RowAction
            label={`Delete ${name}`}
            title="Delete client"
            onClick={() => actions.onDelete(client)}
            destructive
          >
            <Trash2 />
          </RowAction>
        </div>
      </TableCell>
    </TableRow>
  );
}

function RowAction({
  label,
  title,
  onClick,
  disabled,
  destructive,
  children,
}: {
  label: string;
  title: string;
  onClick: () => void;
  disabled?: boolean;
  destructive?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className={destructive ? 'size-8 text-destructive hover:text-destructive' : 'size-8'}
      aria-label={label}
      title={title}
      onClick={onClick}
      disabled={disabled}
    >
      {children}
    </Button>
  );
}
