/** The audit log (Support Tools): who did what to which client, and when, filterable by admin, client and action. */
import { useState } from 'react';
import { clientName } from '../../../contract/admin';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntry,
} from '../../../contract/agency';
import { formatCallCreated } from '../../../contract/format';
import { NativeSelect } from '../../components/native-select';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { CallPagination } from '../calls/call-pagination';
import { type AuditFilters, useAdmins, useAuditLog } from './console-queries';
import { useAdminClients } from './queries';

/** The facts an entry carries, in words (counts, changed fields, ids); never secrets. */
function describeDetail(entry: AuditEntry): string {
  if (!entry.detail) return '';
  return Object.entries(entry.detail)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

export function AuditLogCard() {
  const [filters, setFilters] = useState<AuditFilters>({ adminId: '', clientId: '', action: '', page: 1 });
  const audit = useAuditLog(filters);
  const admins = useAdmins();
  const clients = useAdminClients();
  const set = (key: keyof Omit<AuditFilters, 'page'>) => (value: string) =>
    setFilters((f) => ({ ...f, [key]: value, page: 1 }));

  const selects = [
    {
      key: 'adminId' as const,
      label: 'Admin',
      all: 'All admins',
      options: (admins.data ?? []).map((a) => ({ value: a.id, label: a.name })),
    },
    {
      key: 'clientId' as const,
      label: 'Client',
      all: 'All clients',
      options: (clients.data ?? []).map((c) => ({
        value: c.id,
        label: clientName(c),
      })),
    },
    {
      key: 'action' as const,
      label: 'Action',
      all: 'All actions',
      options: AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] })),
    },
  ];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit log</CardTitle>
        <CardDescription>
          Every admin action, newest first; reads of a client's calls and exports included
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-3">
          {selects.map((s) => (
            <div key={s.key} className="grid gap-1.5">
              <Label htmlFor={`audit-${s.key}`}>{s.label}</Label>
              <NativeSelect
                id={`audit-${s.key}`}
                value={filters[s.key]}
                onChange={(e) => set(s.key)(e.target.value)}
              >
                <option value="">{s.all}</option>
                {s.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
          ))}
        </div>
        {audit.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : audit.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The audit log could not be loaded.
          </p>
        ) : audit.data.items.length === 0 ? (
          <p className="py-4 text-center text-muted-foreground text-sm">
            Nothing recorded for these filters.
          </p>
        ) : (
          <Table aria-label="Audit log" scrollLabel="Audit log, scrollable">
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>Admin</TableHead>
                <TableHead>Action</TableHead>
                <TableHead>Client</TableHead>
                <TableHead>Details</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {audit.data.items.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="whitespace-nowrap">{formatCallCreated(entry.at)}</TableCell>
                  <TableCell className="whitespace-nowrap">{entry.adminName}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {AUDIT_ACTION_LABELS[
                      entry.action as AuditAction /* text on the wire; unknown shows as is */
                    ] ?? entry.action}
                  </TableCell>
                  <TableCell>{entry.clientName ?? (entry.clientId ? 'A deleted client' : '—')}</TableCell>
                  <TableCell className="min-w-48 text-muted-foreground text-xs">
                    {describeDetail(entry)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <CallPagination
          pagination={audit.data?.pagination}
          onPageChange={(page) => setFilters((f) => ({ ...f, page }))}
        />
      </CardContent>
    </Card>
  );
}
