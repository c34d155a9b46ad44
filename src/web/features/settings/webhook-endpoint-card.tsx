/**
 * Webhook notifications in the Notifications tab: the URL the product POSTs finished
 * calls to, its signing secret (shown once, when made or rotated), a test event, and the
 * delivery log with "Send again". The event format is in docs/webhooks.md.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { formatCallCreated } from '../../../contract/format';
import type { ClientWebhookSaved, WebhookDelivery } from '../../../contract/integrations';
import { CopyField } from '../../components/copy-field';
import { PendingButton } from '../../components/pending-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { serverFieldErrors, serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import {
  useRemoveWebhook,
  useResendDelivery,
  useRotateWebhookSecret,
  useSaveWebhookUrl,
  useSendTestEvent,
} from './mutations';
import { useWebhookDeliveries, useWebhookEndpoint } from './queries';

export function WebhookEndpointCard() {
  const endpoint = useWebhookEndpoint();
  const save = useSaveWebhookUrl();
  const rotate = useRotateWebhookSecret();
  const remove = useRemoveWebhook();
  const test = useSendTestEvent();
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [newSecret, setNewSecret] = useState<string | null>(null);
  const current = endpoint.data?.url ?? null;
  useEffect(() => setUrl(current ?? ''), [current]);

  const showSecret = (saved: ClientWebhookSaved) => {
    if (saved.secret) setNewSecret(saved.secret);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setUrlError(null);
    save.mutate(url, {
      onSuccess: (saved) => {
        showSecret(saved);
        toast({ title: 'Webhook Saved', description: 'Finished calls are sent to this address.' });
      },
      onError: (error) =>
        setUrlError(
          serverFieldErrors(error).url ?? serverMessageOf(error, 'The address could not be saved.'),
        ),
    });
  }

  function sendTest() {
    test.mutate(undefined, {
      onSuccess: (result) =>
        result.delivered
          ? toast({
              title: 'Test Event Delivered',
              description: `Your endpoint answered ${result.statusCode}.`,
            })
          : toast({
              title: 'Test Event Not Delivered',
              description: result.error ?? 'Your endpoint did not accept it.',
              variant: 'destructive',
            }),
      onError: (error) => failureToast('Test Event Not Sent', error),
    });
  }

  function rotateSecret() {
    if (!window.confirm('Make a new signing secret? Deliveries are signed with the new one at once.')) return;
    rotate.mutate(undefined, {
      onSuccess: showSecret,
      onError: (error) => failureToast('Secret Not Rotated', error),
    });
  }

  function removeEndpoint() {
    if (!window.confirm('Stop sending calls to this address?')) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        setNewSecret(null);
        toast({ title: 'Webhook Removed', description: 'No more calls are sent to your endpoint.' });
      },
      onError: (error) => failureToast('Webhook Not Removed', error),
    });
  }

  return (
    <section aria-labelledby="webhook-endpoint-title">
      <Card>
        <CardHeader>
          <CardTitle id="webhook-endpoint-title">Webhook endpoint</CardTitle>
          <CardDescription>
            With webhook notifications on, each finished call is POSTed to this address as JSON, signed with
            your secret in the X-Signature header: connect your CRM, Zapier or your own systems.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {endpoint.isPending ? (
            <Skeleton className="h-20 w-full" />
          ) : (
            <form onSubmit={submit} noValidate className="grid gap-1.5" aria-label="Webhook endpoint">
              <Label htmlFor="webhook-url">Endpoint URL</Label>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Input
                  id="webhook-url"
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com/hooks/calls"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                  aria-invalid={urlError ? true : undefined}
                  aria-describedby={urlError ? 'webhook-url-error' : undefined}
                />
                <PendingButton
                  type="submit"
                  pending={save.isPending}
                  pendingLabel="Saving..."
                  disabled={!url.trim()}
                >
                  {current ? 'Save URL' : 'Add endpoint'}
                </PendingButton>
              </div>
              {urlError && (
                <p id="webhook-url-error" role="alert" className="text-destructive text-sm">
                  {urlError}
                </p>
              )}
            </form>
          )}

          {newSecret && (
            <div className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              <p className="font-semibold">Store your signing secret now: it is not shown again.</p>
              <CopyField id="webhook-secret" label="Signing secret" value={newSecret} />
            </div>
          )}

          {current && (
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-muted-foreground text-sm">
                Signing secret ending in <span className="font-mono">{endpoint.data?.secretHint}</span>
              </span>
              <div className="flex flex-wrap gap-2 sm:ml-auto">
                <PendingButton
                  variant="outline"
                  onClick={sendTest}
                  pending={test.isPending}
                  pendingLabel="Sending..."
                >
                  Send test event
                </PendingButton>
                <PendingButton
                  variant="outline"
                  onClick={rotateSecret}
                  pending={rotate.isPending}
                  pendingLabel="Rotating..."
                >
                  Rotate secret
                </PendingButton>
                <Button
                  variant="ghost"
                  className="text-destructive"
                  onClick={removeEndpoint}
                  disabled={remove.isPending}
                >
                  Remove
                </Button>
              </div>
            </div>
          )}

          {current && <DeliveryLog />}
        </CardContent>
      </Card>
    </section>
  );
}

const STATUS_LABELS: Record<
  string,
  { label: string; variant: 'default' | 'secondary' | 'destructive' | 'outline' }
> = {
  sent: { label: 'Delivered', variant: 'default' },
  pending: { label: 'Retrying', variant: 'secondary' },
  failed: { label: 'Gave up', variant: 'destructive' },
  cancelled: { label: 'Not delivered', variant: 'outline' },
};

function DeliveryLog() {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(page, true);
  const resend = useResendDelivery();
  const rows = deliveries.data?.deliveries ?? [];

  function sendAgain(delivery: WebhookDelivery) {
    resend.mutate(delivery.id, {
      onSuccess: () =>
        toast({ title: 'Sending Again', description: 'The event is on its way (same event id).' }),
      onError: (error) => failureToast('Not Sent Again', error),
    });
  }

  return (
    <section aria-labelledby="webhook-deliveries-title" className="grid gap-2">
      <h3 id="webhook-deliveries-title" className="font-semibold text-sm">
        Recent deliveries
      </h3>
      {deliveries.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          No deliveries yet. Send a test event to try your endpoint.
        </p>
      ) : (
        <ul className="divide-y rounded-md border">
          {rows.map((d) => {
            const status = STATUS_LABELS[d.status] ?? { label: d.status, variant: 'outline' as const };
            return (
              <li
                key={d.id}
                className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center"
                data-testid="webhook-delivery"
              >
                <div className="grid grow gap-0.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium font-mono text-xs">{d.event}</span>
                    <Badge variant={status.variant}>{status.label}</Badge>
                    {d.statusCode !== null && (
                      <span className="text-muted-foreground text-xs">HTTP {d.statusCode}</span>
                    )}
                    <span className="text-muted-foreground text-xs">
                      {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                    </span>
                  </div>
                  <span className="text-muted-foreground text-xs">
                    {formatCallCreated(d.createdAt)}
                    {d.lastError && d.status !== 'sent' ? ` · ${d.lastError}` : ''}
                    {d.nextAttemptAt ? ` · next try ${formatCallCreated(d.nextAttemptAt)}` : ''}
                  </span>
                </div>
                {d.event !== 'test' && (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => sendAgain(d)}
                    disabled={resend.isPending}
                    aria-label={`Send again: ${d.event} of ${formatCallCreated(d.createdAt)}`}
                  >
                    Send again
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {(page > 1 || deliveries.data?.hasMore) && (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!deliveries.data?.hasMore}
            onClick={() => setPage(page + 1)}
          >
            Older
          </Button>
        </div>
      )}
    </section>
  );
}
