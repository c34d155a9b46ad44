/** Everything the admin knows about one client (SPEC §2 "Admin client view"), above their calls. */
import type { ReactNode } from 'react';
import { ACCOUNT_TYPE_LABELS, type AdminClientListItem, INDUSTRY_LABELS } from '../../../contract/admin';
import { formatCount, formatMoney } from '../../../contract/format';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiKeyStatusBadge } from './api-key-badge';
import { formatLastActivity } from './client-table';

/**
 * `client` null: still being read (the first screen's read): the same labels with a
 * line's placeholder each, so the card keeps its height when the values arrive.
 */
export function ClientInformationCard({ client }: { client: AdminClientListItem | null }) {
  const items = client
    ? clientItems(client)
    : ITEM_LABELS.map((label): [string, ReactNode] => [
        label,
        <Skeleton key={label} className="my-0.5 h-4 w-24" />,
      ]);
  return (
    <Card className="gap-4" data-testid="client-information" aria-busy={client === null}>
      <CardHeader>
        <CardTitle className="text-lg">Client Information</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:gap-x-6 lg:grid-cols-4">
          {items.map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-muted-foreground text-xs">{label}</dt>
              <dd className="break-words text-sm">{value}</dd>
            </div>
          ))}
        </dl>
        {client?.notes && (
          <div className="mt-4 rounded-md bg-muted/50 p-3">
            <p className="text-muted-foreground text-xs">Admin Notes</p>
            <p className="whitespace-pre-wrap text-sm">{client.notes}</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const ITEM_LABELS = [
  'Phone',
  'Job Title',
  'Website',
  'Industry',
  'Company Size',
  'Address',
  'Account Type',
  'Per-Minute Rate',
  'Timezone',
  'Account Status',
  'API Key',
  'Login',
  'Total Calls',
  'Total Revenue',
  'Last Call',
  'Client Since',
] as const;

function clientItems(client: AdminClientListItem): [(typeof ITEM_LABELS)[number], ReactNode][] {
  const address = [client.address, client.city, client.state, client.zipCode, client.country]
    .filter(Boolean)
    .join(', ');
  return [
    ['Phone', client.phoneNumber || '—'],
    ['Job Title', client.jobTitle || '—'],
    [
      'Website',
      client.companyWebsite ? (
        <a
          key="website"
          href={client.companyWebsite}
          target="_blank"
          rel="noreferrer noopener"
          className="break-all text-primary-text underline-offset-4 hover:underline"
        >
          {client.companyWebsite}
        </a>
      ) : (
        '—'
      ),
    ],
    ['Industry', client.industry ? (INDUSTRY_LABELS[client.industry] ?? client.industry) : '—'],
    ['Company Size', client.companySize ? `${client.companySize} employees` : '—'],
    ['Address', address || '—'],
    [
      'Account Type',
      // accountType is text on the wire; an unknown one shows as it is
      ACCOUNT_TYPE_LABELS[client.accountType as keyof typeof ACCOUNT_TYPE_LABELS] ?? client.accountType,
    ],
    ['Per-Minute Rate', `${formatMoney(client.perMinuteRate)}/min`],
    ['Timezone', client.timezone],
    ['Account Status', client.isActive ? 'Active' : 'Deactivated'],
    [
      'API Key',
      <span key="key" className="flex flex-wrap items-center gap-2">
        <ApiKeyStatusBadge status={client.apiKeyStatus} />
        {client.blandApiKey && <span className="font-mono text-xs">{client.blandApiKey}</span>}
      </span>,
    ],
    ['Login', client.hasLoginCredentials ? 'Credentials issued' : 'No credentials yet'],
    ['Total Calls', formatCount(client.totalCalls)],
    ['Total Revenue', formatMoney(client.totalCost)],
    ['Last Call', formatLastActivity(client.lastCallDate)],
    ['Client Since', formatLastActivity(client.createdAt)],
  ];
}
