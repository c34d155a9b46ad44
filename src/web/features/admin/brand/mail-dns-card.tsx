/**
 * "Mail from your domain", at the end of the Brand tab: the SPF, DKIM and DMARC records
 * MAIL_FROM's domain needs, each with a copy button, and after "Check DNS" whether DNS holds each.
 * The records are read without asking DNS (`check=false`); only the button sends the look-ups,
 * which the server caps per admin (a 429 lands in the toast in the server's words).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, CircleHelp, XCircle } from 'lucide-react';
import { BRAND_TEXTS } from '../../../../contract/brand';
import {
  MAIL_DNS_TEXTS,
  type MailDnsAnswer,
  type MailDnsRecord,
  type MailDnsStatus,
} from '../../../../contract/brand-mail-dns';
import { CopyField } from '../../../components/copy-field';
import { QueryView } from '../../../components/query-view';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { getJson } from '../../../lib/api';
import { failureToast } from '../../../lib/failure-toast';
import { cn } from '../../../lib/utils';

const dnsKey = ['admin', 'brand', 'dns'] as const;
const dnsUrl = (check: boolean) => `/api/admin/brand/dns?check=${check}`;

const STATUS_LOOK: Record<MailDnsStatus, { icon: typeof CheckCircle2; className: string }> = {
  present: { icon: CheckCircle2, className: 'text-green-700 dark:text-green-400' },
  missing: { icon: XCircle, className: 'text-destructive' },
  different: { icon: AlertTriangle, className: 'text-amber-700 dark:text-amber-400' },
  unknown: { icon: CircleHelp, className: 'text-muted-foreground' },
};

function StatusLine({ status }: { status: MailDnsStatus }) {
  const { icon: Icon, className } = STATUS_LOOK[status];
  return (
    <span className={cn('inline-flex items-center gap-1 font-medium text-sm', className)}>
      <Icon className="size-4" aria-hidden="true" />
      {MAIL_DNS_TEXTS.status[status]}
    </span>
  );
}

function RecordRow({ record, checked }: { record: MailDnsRecord; checked: boolean }) {
  const id = `mail-dns-${record.purpose.toLowerCase()}`;
  return (
    <li className="grid min-w-0 gap-2 border-b pb-4 last:border-b-0 last:pb-0" data-testid={id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-sm">
          {record.purpose} <span className="font-normal text-muted-foreground">({record.type})</span>
        </h3>
        {checked ? <StatusLine status={record.status} /> : null}
      </div>
      <CopyField id={`${id}-name`} label={`${record.purpose} name`} value={record.name} />
      {record.expected ? (
        <CopyField id={`${id}-value`} label={`${record.purpose} value`} value={record.expected} />
      ) : null}
      {checked && record.found.length > 0 && record.status !== 'present' ? (
        <div className="min-w-0 text-sm">
          <p className="text-muted-foreground">Found in DNS:</p>
          <ul className="grid gap-1">
            {record.found.map((value) => (
              <li key={value} className="break-all font-mono text-xs">
                {value}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-muted-foreground text-sm">{record.note}</p>
    </li>
  );
}

export function MailDnsCard() {
  const queryClient = useQueryClient();
  const records = useQuery({
    queryKey: dnsKey,
    queryFn: () => getJson<MailDnsAnswer>(dnsUrl(false)),
    refetchOnWindowFocus: false,
    // A check's answer replaces the listing; the admin area's writes must not drop it for a re-list.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const check = useMutation({
    mutationFn: () => getJson<MailDnsAnswer>(dnsUrl(true)),
    onSuccess: (answer) => queryClient.setQueryData(dnsKey, answer),
    onError: (error) => failureToast('DNS not checked', error, 'DNS could not be checked.'),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{MAIL_DNS_TEXTS.heading}</h2>
        </CardTitle>
        <CardDescription>{MAIL_DNS_TEXTS.intro}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryView
          query={records}
          what="the mail DNS records"
          isEmpty={(data) => !data}
          loading={<Skeleton className="h-48 w-full" aria-label="Loading the mail DNS records" />}
          empty={null}
        >
          {(data) => (
            <div className="grid min-w-0 gap-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm">
                  Domain: <span className="font-mono">{data.domain}</span>
                </p>
                <Button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
                  {check.isPending ? <Spinner className="size-4 text-current" /> : null}
                  {check.isPending ? 'Checking…' : BRAND_TEXTS.checkDns}
                </Button>
              </div>
              {/* Read out when a check lands, so a screen reader hears that the statuses changed. */}
              <p className="sr-only" aria-live="polite">
                {data.checked
                  ? `Checked: ${data.records.map((r) => `${r.purpose} ${MAIL_DNS_TEXTS.status[r.status]}`).join(', ')}`
                  : ''}
              </p>
              <ul className="grid min-w-0 gap-4">
                {data.records.map((record) => (
                  <RecordRow key={record.purpose} record={record} checked={data.checked} />
                ))}
              </ul>
            </div>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
}
