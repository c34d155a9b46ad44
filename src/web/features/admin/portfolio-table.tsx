/**
 * The portfolio per client (Analytics tab): ordered by any figure, narrowed by name or e-mail and
 * paged on the server (an agency's thousand clients are not sent at once), each row opening the
 * client's dashboard.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { defaultOrderOf, type PortfolioClient, type PortfolioSort } from '../../../contract/agency';
import type { Pagination } from '../../../contract/common';
import { formatCount } from '../../../contract/format';
import { SearchField } from '../../components/search-field';
import { SortableHead } from '../../components/sortable-head';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { cn } from '../../lib/utils';
import { CallPagination } from '../calls/call-pagination';
import type { PortfolioView } from './console-queries';
import { cents } from './money';

type SortKey = Exclude<PortfolioSort, 'marginPercent' | 'minutes'>;

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

/**
 * How well each client's agent speaks, for the range: not sortable, since the server
 * pages the table by its stored figures and these come from the quality rollups of the page.
 */
const QUALITY_COLUMNS: { key: string; label: string; title: string; show: (c: PortfolioClient) => string }[] =
  [
    {
      key: 'medianResponseMs',
      label: 'Median response',
      title: "Median of the calls' median time for the agent to answer the caller",
      show: (c) => (c.medianResponseMs === null ? '—' : `${(c.medianResponseMs / 1000).toFixed(1)} s`),
    },
    {
      key: 'interruptionRate',
      label: 'Interrupted',
      title: 'Measured calls in which the caller talked over the agent',
      show: (c) => rate(c.interruptionRate),
    },
  ];

export const FIRST_VIEW: PortfolioView = { sort: 'revenueCents', order: 'desc', page: 1, search: '' };

/** Typing settles for this long before the table asks the server again. */
const SEARCH_SETTLE_MS = 250;

export function PortfolioTable({
  clients,
  pagination,
  view,
  onViewChange,
}: {
  clients: PortfolioClient[] | undefined;
  pagination: Pagination | undefined;
  view: PortfolioView;
  onViewChange: (view: PortfolioView) => void;
}) {
  const [text, setText] = useState(view.search);
  useEffect(() => {
    if (text.trim() === view.search) return;
    const timer = setTimeout(() => onViewChange({ ...view, search: text.trim(), page: 1 }), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text, view, onViewChange]);
  const sortBy = (key: SortKey) =>
    onViewChange({
      ...view,
      sort: key,
      order: view.sort === key ? (view.order === 'desc' ? 'asc' : 'desc') : defaultOrderOf(key),
      page: 1,
    });
  const orderOf = (key: SortKey) => (view.sort === key ? view.order : null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Clients</CardTitle>
        <CardDescription>
          Revenue is what each client was billed at its rate; cost is what the provider charged.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <SearchField
          className="max-w-sm"
          aria-label="Find a client in the table"
          placeholder="Find a client by name or email..."
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {clients === undefined ? (
          <Skeleton className="h-40 w-full" />
        ) : clients.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground text-sm">
            {view.search ? `No client matches “${view.search}”.` : 'No clients yet.'}
          </p>
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
                {QUALITY_COLUMNS.map((c) => (
                  <TableHead key={c.key} title={c.title} className="whitespace-nowrap text-right">
                    {c.label}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {clients.map((client) => (
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
                  {QUALITY_COLUMNS.map((c) => (
                    <TableCell key={c.key} className="whitespace-nowrap text-right tabular-nums">
                      {c.show(client)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <CallPagination pagination={pagination} onPageChange={(page) => onViewChange({ ...view, page })} />
      </CardContent>
    </Card>
  );
}
