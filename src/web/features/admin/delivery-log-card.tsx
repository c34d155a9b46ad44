/** A client's webhook delivery log (Support Tools): what arrived, what became of it and why, with Replay. */
import { useState } from 'react';
import { DELIVERY_OUTCOME_LABELS, DELIVERY_OUTCOMES, type DeliveryOutcome } from '../../../contract/agency';
import { formatCallCreated } from '../../../contract/format';
import { NativeSelect } from '../../components/native-select';
import { PendingButton } from '../../components/pending-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { CallPagination } from '../calls/call-pagination';
import { useDeliveries, useDelivery, useReplayDelivery } from './console-queries';

const TROUBLE: ReadonlySet<string> = new Set(['refused', 'unconfirmed']);

export function DeliveryLogCard({ clientId }: { clientId: string }) {
  const [page, setPage] = useState(1);
  const [outcome, setOutcome] = useState('');
  const [viewing, setViewing] = useState<string | null>(null);
  const deliveries = useDeliveries(clientId, page, outcome);
  const replay = useReplayDelivery();

  function replayOne(deliveryId: string) {
    replay.mutate(
      { clientId, deliveryId },
      {
        onSuccess: (result) => toast({ title: 'Delivery replayed', description: result.message }),
        onError: (error) => failureToast('Replay failed', error),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhook deliveries</CardTitle>
        <CardDescription>
          Refused and unconfirmed deliveries keep their body: fix the cause (the API key, the signing secret),
          then replay them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5 sm:max-w-xs">
          <Label htmlFor="delivery-outcome">Outcome</Label>
          <NativeSelect
            id="delivery-outcome"
            value={outcome}
            onChange={(e) => {
              setOutcome(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All deliveries</option>
            {DELIVERY_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {DELIVERY_OUTCOME_LABELS[o]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {deliveries.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : deliveries.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The delivery log could not be loaded.
          </p>
        ) : deliveries.data.items.length === 0 ? (
          <p className="py-4 text-center text-muted-foreground text-sm">
            No deliveries{outcome ? ' with this outcome' : ''} in the log.
          </p>
        ) : (
          <Table aria-label="Webhook deliveries" scrollLabel="Webhook deliveries, scrollable">
            <TableHeader>
              <TableRow>
                <TableHead>Received</TableHead>
                <TableHead>Outcome</TableHead>
                <TableHead>Call</TableHead>
                <TableHead>Why</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {deliveries.data.items.map((d) => (
                <TableRow key={d.id}>
                  <TableCell className="whitespace-nowrap">{formatCallCreated(d.receivedAt)}</TableCell>
                  <TableCell>
                    <Badge variant={TROUBLE.has(d.outcome) ? 'destructive' : 'secondary'}>
                      {DELIVERY_OUTCOME_LABELS[
                        d.outcome as DeliveryOutcome /* text on the wire; unknown shows as is */
                      ] ?? d.outcome}
                    </Badge>
                    {d.replayOf && <span className="ml-1 text-muted-foreground text-xs">(replay)</span>}
                  </TableCell>
                  <TableCell className="max-w-40 truncate font-mono text-xs" title={d.callId ?? undefined}>
                    {d.callId ?? '—'}
                  </TableCell>
                  <TableCell className="min-w-48 text-sm">{d.detail ?? '—'}</TableCell>
                  <TableCell className="whitespace-nowrap text-right">
                    {d.replayable && (
                      <div className="flex justify-end gap-2">
                        <Button size="sm" variant="outline" onClick={() => setViewing(d.id)}>
                          Body
                        </Button>
                        <PendingButton
                          size="sm"
                          pending={replay.isPending && replay.variables?.deliveryId === d.id}
                          pendingLabel="Replaying…"
                          onClick={() => replayOne(d.id)}
                        >
                          Replay
                        </PendingButton>
                      </div>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <CallPagination pagination={deliveries.data?.pagination} onPageChange={setPage} />
      </CardContent>
      <DeliveryBody clientId={clientId} deliveryId={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}

function DeliveryBody({
  clientId,
  deliveryId,
  onClose,
}: {
  clientId: string;
  deliveryId: string | null;
  onClose: () => void;
}) {
  const delivery = useDelivery(clientId, deliveryId);
  return (
    <Dialog open={deliveryId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Delivery body</DialogTitle>
          <DialogDescription>
            {delivery.data?.detail ?? 'As it arrived at the webhook URL.'}
          </DialogDescription>
        </DialogHeader>
        {delivery.data ? (
          <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-3 text-xs">
            {pretty(delivery.data.body ?? '')}
          </pre>
        ) : (
          <Skeleton className="h-40 w-full" />
        )}
      </DialogContent>
    </Dialog>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
