/** The portfolio per client (Analytics tab): sortable by any figure, each row opening the client's dashboard. */
import { useState } from 'react';
import { Link } from 'wouter';
import type { PortfolioClient } from '../../../contract/agency';
import { formatCount } from '../../../contract/format';
import { SortableHead } from '../../components/sortable-head';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHeader, TableRow } from '../../components/ui/table';
import { cn } from '../../lib/utils';
import { cents } from './money';

type SortKey =
  | 'name'
  | 'revenueCents'
  | 'costCents'
  | 'marginCents'
  | 'calls'
  | 'answerRate'
  | 'failureRate'
  | 'lastCallAt';

const rate = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);

const COLUMNS: { key: SortKey; label: string; numeric: boolean; show: (c: PortfolioClient) => string }[] = [
  { key: 'revenueCents', label: 'Revenue', numeric: true, show: (c) => cents(c.revenueCents) },
  { key: 'costCents', label: 'Cost', numeric: true, show: (c) => cents(c.costCents) },
  {
    key: 'marginCents',
    label: 'Margin',
    numeric: true,
    show: (c) =>
      `${cents(c.marginCents)}${c.marginPercent === null ? '' : ` (${c.marginPercent.toFixed(1)}%)`}`,
  },
  { key: 'calls', label: 'Calls', numeric: true, show: (c) => formatCount(c.calls) },
  { key: 'answerRate', label: 'Answer rate', numeric: true, show: (c) => rate(c.answerRate) },
  { key: 'failureRate', label: 'Failure rate', numeric: true, show: (c) => rate(c.failureRate) },
  {
    key: 'lastCallAt',
    label: 'Last call',
    numeric: false,
    show: (c) => (c.lastCallAt ? new Date(c.lastCallAt).toLocaleDateString('en-US') : 'Never'),
  },
];

function compare(a: PortfolioClient, b: PortfolioClient, key: SortKey): number {
  const x = a[key];
  const y = b[key];
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return x < y ? -1 : 1;
}

export function PortfolioTable({ clients }: { clients: PortfolioClient[] | undefined }) {
  const [sort, setSort] = useState<{ key: SortKey; order: 'asc' | 'desc' }>({
    key: 'revenueCents',
    order: 'desc',
  });
  const sorted = [...(clients ?? [])].sort((a, b) => {
    const order = compare(a, b, sort.key) || a.name.localeCompare(b.name);
    return sort.order === 'asc' ? order : -order;
  });
  const sortBy = (key: SortKey) =>
    setSort((s) => ({
      key,
      order: s.key === key && s.order === 'desc' ? 'asc' : key === 'name' ? 'asc' : 'desc',
    }));
  const orderOf = (key: SortKey) => (sort.key === key ? sort.order : null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Clients</CardTitle>
        <CardDescription>
          Revenue is what each client was billed at its rate; cost is what the provider charged.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {clients === undefined ? (
          <Skeleton className="h-40 w-full" />
        ) : clients.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground text-sm">No clients yet.</p>
        ) : (
          <Table
            aria-label="Clients by revenue, cost and margin"
            scrollLabel="Clients by revenue, cost and margin, scrollable"
          >
            <TableHeader>
              <TableRow>
                <SortableHead label="Client" order={orderOf('name')} onSort={() => sortBy('name')} />
                {COLUMNS.map((c) => (
                  <SortableHead
                    key={c.key}
                    label={c.label}
                    order={orderOf(c.key)}
                    onSort={() => sortBy(c.key)}
                    className={cn(c.numeric && 'text-right', 'whitespace-nowrap')}
                  />
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {sorted.map((client) => (
                <TableRow key={client.clientId}>
                  <TableCell className="min-w-40">
                    <Link
                      href={`/admin/client/${encodeURIComponent(client.clientId)}`}
                      className="font-medium underline-offset-4 hover:underline"
                    >
                      {client.name}
                    </Link>
                    {!client.isActive && (
                      <span className="ml-2 text-muted-foreground text-xs">(inactive)</span>
                    )}
                  </TableCell>
                  {COLUMNS.map((c) => (
                    <TableCell
                      key={c.key}
                      className={cn(
                        'whitespace-nowrap tabular-nums',
                        c.numeric && 'text-right',
                        c.key === 'marginCents' && client.marginCents < 0 && 'text-red-700',
                      )}
                    >
                      {c.show(client)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
