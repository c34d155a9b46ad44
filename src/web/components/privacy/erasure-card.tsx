/**
 * "Erase a caller": a phone number or an e-mail address, a confirmation saying what goes
 * (and that totals stay) with the calls it will take — how many, and the newest few (time, masked
 * caller, a line around the subject) from the server's preview, by the same rule the erasure runs,
 * Erase waiting until they are known — then the account's erasures: where each stands (read again each second
 * while one runs), what was removed, each voice platform's answer, and its documents: the
 * confirmation to send to the caller (PDF), the internal report (PDF) and the record as JSON.
 */
import { useQueryClient } from '@tanstack/react-query';
import { FileDown, UserX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { type ErasurePreview, type ErasureStatus, PRIVACY_TEXTS } from '../../../contract/privacy';
import { formatPhone } from '../../features/calls/phone';
import { callKeys } from '../../features/calls/query-keys';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { toast } from '../../lib/use-toast';
import { cn } from '../../lib/utils';
import { ConfirmDeleteDialog } from '../confirm-delete-dialog';
import { FieldShell } from '../form-fields';
import { QueryView } from '../query-view';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Input } from '../ui/input';
import { Skeleton } from '../ui/skeleton';
import { Spinner } from '../ui/spinner';
import type { PrivacyApi } from './privacy-api';
import { erasureSubjectOf, erasureTotals, providerAnswer, readablePhone } from './privacy-draft';
import { useErasurePreview, useErasures, useStartErasure } from './privacy-queries';

type Subject = { phone: string } | { email: string };

const subjectText = (subject: Subject) => ('phone' in subject ? readablePhone(subject.phone) : subject.email);

export function ErasureCard({ api, idPrefix = 'privacy' }: { api: PrivacyApi; idPrefix?: string }) {
  const start = useStartErasure(api);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Subject | null>(null);
  const preview = useErasurePreview(api, confirming);
  const showPlatform = useShowPlatformDetails();
  const id = `${idPrefix}-erase-subject`;

  function ask() {
    const subject = erasureSubjectOf(input);
    if ('problem' in subject) return setError(subject.problem);
    setError(null);
    setConfirming(subject);
  }

  function erase() {
    if (!confirming) return;
    start.mutate(confirming, {
      onSuccess: () => {
        setConfirming(null);
        setInput('');
        toast({ title: 'Erasure started', description: 'Its receipt is ready below when it is done.' });
      },
      onError: (failure) => {
        setConfirming(null);
        const fields = Object.values(serverFieldErrors(failure));
        if (fields.length > 0) setError(fields[0]);
        else failureToast('Erasure not started', failure, 'The erasure could not be started.');
      },
    });
  }

  return (
    <Card data-testid="erasure-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserX className="size-4" aria-hidden="true" />
          <h2>{PRIVACY_TEXTS.erasureHeading}</h2>
        </CardTitle>
        <CardDescription>{PRIVACY_TEXTS.erasureHelp}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-start"
          aria-label={PRIVACY_TEXTS.erasureHeading}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            ask();
          }}
        >
          <FieldShell
            id={id}
            label="Caller’s phone number or e-mail address"
            error={error ?? undefined}
            className="flex-1"
          >
            <Input
              id={id}
              value={input}
              autoComplete="off"
              placeholder="+1 212 555 0199"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                setInput(e.target.value);
                setError(null);
              }}
            />
          </FieldShell>
          <Button type="submit" variant="destructive" className="sm:mt-[1.375rem]" disabled={start.isPending}>
            <UserX aria-hidden="true" />
            Erase caller…
          </Button>
        </form>

        <ErasureList api={api} idPrefix={idPrefix} />
      </CardContent>

      <ConfirmDeleteDialog
        open={confirming !== null}
        title="Erase this caller?"
        description={
          confirming && (
            <>
              Every call {'phone' in confirming ? 'from or to' : 'naming'}{' '}
              <strong className="text-foreground">{subjectText(confirming)}</strong> is removed: its
              transcript, summary, recording link, stored copies, messages and search entries, here and, where
              the {showPlatform ? 'platform allows, at the voice platform' : 'call service allows, there'}.
              This cannot be undone. Totals, charts, usage and invoices keep their numbers.
            </>
          )
        }
        confirmDisabled={!preview.isSuccess}
        pending={start.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={erase}
        confirmLabel={PRIVACY_TEXTS.erasureConfirm}
        pendingLabel="Erasing..."
      >
        {confirming && (
          <section aria-labelledby={`${idPrefix}-erase-preview-heading`} className="grid min-w-0 gap-2">
            <h3 id={`${idPrefix}-erase-preview-heading`} className="sr-only">
              The calls to erase
            </h3>
            {preview.isSuccess ? (
              <PreviewOf preview={preview.data} />
            ) : preview.isError ? (
              <p className="text-destructive text-sm" role="alert">
                The calls to erase could not be found, so nothing can be erased now. Cancel and try again.
              </p>
            ) : (
              <p className="flex items-center gap-2 text-muted-foreground text-sm" role="status">
                <Spinner className="size-3" />
                Finding the calls to erase…
              </p>
            )}
          </section>
        )}
      </ConfirmDeleteDialog>
    </Card>
  );
}

const callsWord = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'call' : 'calls'}`;

/** How many calls go and the newest few, to recognise them by before confirming. */
function PreviewOf({ preview }: { preview: ErasurePreview }) {
  if (preview.count === 0)
    return (
      <p className="text-sm" data-testid="erase-preview-count" role="status">
        No stored call matches. Erasing still removes what the delivery log kept and gives a receipt.
      </p>
    );
  const more = preview.count - preview.sample.length;
  return (
    <>
      <p className="font-medium text-sm" data-testid="erase-preview-count" role="status">
        {callsWord(preview.count)} will be erased
        {more > 0 ? `, the newest ${preview.sample.length} shown` : ''}:
      </p>
      <ul className="grid max-h-56 gap-2 overflow-y-auto text-sm" aria-label="Calls to erase">
        {preview.sample.map((call) => (
          <li
            key={call.id}
            className="grid min-w-0 gap-0.5 rounded-md border p-2"
            data-testid="erase-preview-call"
          >
            <p className="flex flex-wrap gap-x-3 text-muted-foreground text-xs">
              <span>{when(call.createdAt)}</span>
              <span>{call.caller}</span>
            </p>
            {call.excerpt && <p className="break-words">“{call.excerpt}”</p>}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="text-muted-foreground text-xs">and {callsWord(more)} more.</p>}
    </>
  );
}

function ErasureList({ api, idPrefix }: { api: PrivacyApi; idPrefix: string }) {
  const erasures = useErasures(api);
  const queryClient = useQueryClient();
  const running = erasures.data?.erasures.some((e) => e.state === 'running') ?? false;
  // When the last running erasure ends, the calls views read again: its calls are gone.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: callKeys.all });
    wasRunning.current = running;
  }, [running, queryClient]);

  return (
    <section className="grid gap-3" aria-labelledby={`${idPrefix}-erasures-heading`}>
      <h3 id={`${idPrefix}-erasures-heading`} className="font-semibold text-sm">
        Erasures
      </h3>
      <QueryView
        query={erasures}
        what="the erasures"
        loading={<Skeleton className="h-16 w-full" aria-label="Loading the erasures" />}
        isEmpty={(data) => !data || data.erasures.length === 0}
        empty={<p className="text-muted-foreground text-sm">No caller has been erased yet.</p>}
      >
        {(data) => (
          <ul className="grid gap-3" aria-label="Erasures">
            {data.erasures.map((erasure) => (
              <ErasureItem key={erasure.id} erasure={erasure} />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}

const STATE_LABELS: Record<ErasureStatus['state'], string> = {
  running: 'Erasing',
  done: 'Done',
  failed: 'Failed',
};

const when = (ms: number) =>
  new Date(ms).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function ErasureItem({ erasure }: { erasure: ErasureStatus }) {
  const subject =
    erasure.subject.kind === 'phone' ? formatPhone(erasure.subject.value) : erasure.subject.value;
  const showPlatform = useShowPlatformDetails();
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid="erasure" data-erasure-id={erasure.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="break-all font-medium">{subject}</p>
        <Badge
          variant={erasure.state === 'failed' ? 'destructive' : 'secondary'}
          className={cn(erasure.state === 'done' && 'bg-success text-white')}
          data-testid="erasure-state"
        >
          {erasure.state === 'running' && <Spinner className="size-3 text-current" />}
          {STATE_LABELS[erasure.state]}
        </Badge>
      </div>
      <p className="text-muted-foreground text-xs">
        Asked by {erasure.requestedBy} on {when(erasure.requestedAt)}
        {erasure.finishedAt !== null && `, finished ${when(erasure.finishedAt)}`}
      </p>
      {erasure.state === 'running' ? (
        <p className="text-sm" role="status">
          Removing the caller’s calls…
        </p>
      ) : erasure.state === 'failed' ? (
        <p className="text-destructive text-sm">
          The erasure stopped before the end. Start it again to finish it.
        </p>
      ) : (
        <>
          <p className="text-sm" data-testid="erasure-totals">
            {erasureTotals(erasure)}
          </p>
          {erasure.providers.length > 0 && (
            <ul
              className="grid gap-0.5 text-sm"
              aria-label={showPlatform ? 'The voice platform’s answer' : 'The call service’s answer'}
            >
              {erasure.providers.map((p) => (
                <li key={p.provider}>{providerAnswer(p, showPlatform)}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {erasure.receiptUrl && (
        <div className="flex flex-wrap gap-2">
          <a
            href={erasure.receiptUrl}
            download
            aria-label={`Caller’s receipt (PDF) for ${subject}`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            <FileDown aria-hidden="true" />
            Caller’s receipt (PDF)
          </a>
          {erasure.reportUrl && (
            <a
              href={erasure.reportUrl}
              download
              aria-label={`Internal report (PDF) for ${subject}`}
              className={buttonVariants({ variant: 'outline', size: 'sm' })}
            >
              <FileDown aria-hidden="true" />
              Internal report (PDF)
            </a>
          )}
          <a
            href={`${erasure.receiptUrl}?format=json`}
            download
            aria-label={`Record as JSON for ${subject}`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            <FileDown aria-hidden="true" />
            JSON
          </a>
        </div>
      )}
    </li>
  );
}
