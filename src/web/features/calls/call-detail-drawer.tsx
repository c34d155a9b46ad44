/**
 * The call detail drawer, opened from the call log, "Needs attention" or a link
 * (`?call=ID&t=SECONDS`). In the order a business person reads a call: its ID (copyable, the one
 * the e-mails name), what came of it, the recording, the summary, then the transcript in step
 * with the recording; how well the agent spoke in one line (every figure behind "Details"); what
 * the agent collected; who answered and ended it and the cost. The values the voice platform sets
 * on every call by itself are not the client's business: only where the platform may be named
 * (the agency's views) do they show, behind "Platform details". A row with nothing to say is left
 * out. Space plays or pauses and the arrow keys move 5 seconds, wherever the focus is in the
 * drawer but on a control of its own. Texts show redaction's labels as chips; a transcript or
 * recording the client's retention removed says so. The transcript marks the slow
 * answers, interruptions and dead air.
 */
import { Check, Link2 } from 'lucide-react';
import { type KeyboardEvent, useRef } from 'react';
import type { CallDetail } from '../../../contract/calls';
import { formatCallCreated, formatDuration, formatMoney } from '../../../contract/format';
import { PRIVACY_TEXTS } from '../../../contract/privacy';
import { CopyValue } from '../../components/copy-field';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { pathwayWords, useShowPlatformDetails } from '../../lib/platform-details';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import type { CallSource } from './call-source';
import { CallStatusBadge } from './call-status-badge';
import { callVariables } from './call-variables';
import type { AnalyticsScope } from './filters';
import { useMarkHandled } from './mutations';
import { AttentionBadge, OutcomeBadge } from './outcome-badge';
import { formatPhone } from './phone';
import { CallQualitySection } from './quality/call-quality-section';
import { useCallDetail, useOutcomeSummary, useQualityThresholds } from './queries';
import { RedactedText } from './redacted-text';
import { ShowNumberActions, useShownNumbers } from './show-number';
import { SEEK_STEP_SECONDS, type SyncedPlayerHandle, SyncedTranscript } from './synced-transcript';
import { parseTimedTranscript } from './transcript';
import { momentLink } from './transcript-timing';

export interface CallDetailDrawerProps {
  source: CallSource;
  /** For the outcome colours (the summary of the page's window is cached already). */
  scope: AnalyticsScope;
  callId: string | null;
  startAt: number | null;
  onClose: () => void;
}

const ANSWERED_BY: Record<string, string> = {
  human: 'A person',
  voicemail: 'Voicemail',
  'no-answer': 'Nobody (no answer)',
  unknown: 'Unknown',
};
const ENDED_BY: Record<string, string> = {
  user: 'The caller',
  assistant: 'The AI agent',
  agent: 'The AI agent',
};

function label(map: Record<string, string>, value: string | null): string {
  if (!value) return '—';
  return map[value] ?? value.charAt(0).toUpperCase() + value.slice(1);
}

function isOwnControl(target: EventTarget): boolean {
  return (
    target instanceof HTMLElement && !!target.closest('button, input, select, textarea, a, [role="slider"]')
  );
}

export function CallDetailDrawer({ source, scope, callId, startAt, onClose }: CallDetailDrawerProps) {
  const query = useCallDetail(source, callId);
  const player = useRef<SyncedPlayerHandle>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (!player.current || isOwnControl(e.target)) return;
    if (e.key === ' ') {
      e.preventDefault();
      player.current.toggle();
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      player.current.seekBy(e.key === 'ArrowRight' ? SEEK_STEP_SECONDS : -SEEK_STEP_SECONDS);
    }
  };
  return (
    <Dialog open={callId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="top-0 right-0 left-auto h-dvh max-h-dvh w-full max-w-full translate-x-0 translate-y-0 content-start rounded-none sm:max-w-xl"
        onKeyDown={onKeyDown}
        // The drawer's body takes the focus, so space and the arrows work at once.
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          bodyRef.current?.focus();
        }}
        data-testid="call-detail"
      >
        <div ref={bodyRef} tabIndex={-1} className="flex min-w-0 flex-col gap-4 outline-none">
          {query.data ? (
            <CallDetailBody
              call={query.data}
              source={source}
              scope={scope}
              startAt={startAt}
              player={player}
            />
          ) : (
            <>
              <DialogHeader>
                <DialogTitle>{query.isError ? 'Call not found' : 'Loading the call…'}</DialogTitle>
                <DialogDescription>
                  {query.isError
                    ? 'This call does not exist or you are not allowed to see it.'
                    : 'Fetching its details.'}
                </DialogDescription>
              </DialogHeader>
              {!query.isError && <Skeleton className="h-64 w-full" />}
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function CallDetailBody({
  call,
  source,
  scope,
  startAt,
  player,
}: {
  call: CallDetail;
  source: CallSource;
  scope: AnalyticsScope;
  startAt: number | null;
  player: React.RefObject<SyncedPlayerHandle | null>;
}) {
  const summary = useOutcomeSummary(source, scope);
  const color = summary.data?.find((o) => o.name === call.outcome)?.color;
  const handled = useMarkHandled(source);
  const thresholds = useQualityThresholds(source.qualityThresholdsUrl).data?.thresholds;
  const { copied, copy } = useCopyToClipboard();
  const lines = parseTimedTranscript(call.transcript);
  const audio = call.recordingUrl && source.recordingUrl ? source.recordingUrl(call.id) : null;
  const variables = callVariables(call.variables);
  // Only the agency's AdminCallDetail carries providerPrice; this view takes both
  const providerPrice = (call as CallDetail & { providerPrice?: number | null }).providerPrice;
  const numbers = useShownNumbers(source, call);
  const showPlatform = useShowPlatformDetails();
  const pathway = pathwayWords(showPlatform);
  // Rows with nothing to say ("—") are left out.
  const facts = [
    { label: 'Who answered', value: call.answeredBy ? label(ANSWERED_BY, call.answeredBy) : null },
    { label: 'Who ended it', value: call.endedBy ? label(ENDED_BY, call.endedBy) : null },
    { label: 'Cost', value: formatMoney(call.cost) },
  ].filter((f): f is { label: string; value: string } => f.value !== null);
  // What the agency (or a client it shows the platform to) may want, behind "Details".
  const platformFacts = showPlatform
    ? [
        ...(providerPrice !== undefined && providerPrice !== null
          ? [{ label: "Provider's price", value: formatMoney(providerPrice) }]
          : []),
        ...(call.dispositionTag ? [{ label: "Provider's tag", value: call.dispositionTag }] : []),
        { label: 'Platform call ID', value: call.providerCallId, mono: true },
        ...variables.system.map((v) => ({ label: v.label, value: v.value, mono: false })),
      ]
    : [];

  return (
    <>
      <DialogHeader className="pr-8 text-left">
        <DialogTitle>
          Call from {formatPhone(numbers.fromNumber)} to {formatPhone(numbers.toNumber)}
        </DialogTitle>
        <DialogDescription>
          {formatCallCreated(call.createdAt)} · {formatDuration(call.duration)} ·{' '}
          {call.pathway || pathway.none}
        </DialogDescription>
        <p className="flex items-center gap-1 text-muted-foreground text-sm" data-testid="call-reference">
          Call ID <CopyValue label="call ID" value={call.reference} className="text-foreground" />
        </p>
      </DialogHeader>

      <div className="flex flex-wrap items-center gap-2" data-testid="call-result">
        <OutcomeBadge name={call.outcome} color={color} />
        <CallStatusBadge status={call.status} />
        {call.needsAttention && <AttentionBadge />}
        <ShowNumberActions shown={numbers} />
      </div>

      {call.attentionReasons.length > 0 && (
        <div
          className="rounded-md border border-orange-200 bg-orange-50 p-3 text-sm"
          data-testid="attention-reasons"
        >
          <p className="font-medium text-orange-900">Why it needs a person</p>
          <ul className="mt-1 list-disc pl-5 text-orange-900">
            {call.attentionReasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          <div className="mt-2">
            {call.handledAt ? (
              <p className="text-muted-foreground" data-testid="handled-note">
                Handled by {call.handledBy} on {formatCallCreated(call.handledAt)}
              </p>
            ) : (
              source.handledUrl && (
                <Button size="sm" onClick={() => handled.mutate(call.id)} disabled={handled.isPending}>
                  <Check aria-hidden="true" /> Mark handled
                </Button>
              )
            )}
          </div>
        </div>
      )}

      {/* The recording, the summary, then the transcript in step with the recording. */}
      <section
        aria-label="Recording and transcript"
        className="flex flex-col gap-2"
        data-testid="call-recording"
      >
        <div className="flex items-center justify-between gap-2">
          <h3 className="font-medium text-sm">{audio ? 'Recording' : 'Transcript'}</h3>
          {audio && (
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                copy(
                  momentLink(
                    window.location.origin,
                    source.pagePath,
                    call.id,
                    player.current?.position() ?? 0,
                  ),
                )
              }
            >
              <Link2 aria-hidden="true" /> {copied ? 'Copied!' : 'Copy link at this moment'}
            </Button>
          )}
        </div>
        {!audio && call.recordingRemovedAt && (
          <p className="text-muted-foreground text-sm" data-testid="recording-removed">
            {PRIVACY_TEXTS.recordingRemoved}
          </p>
        )}
        <SyncedTranscript
          // A link to another moment of the same call starts the player again there.
          key={`${call.id}:${startAt ?? ''}`}
          ref={player}
          src={audio}
          lines={lines}
          moments={call.quality?.moments}
          durationSeconds={call.duration}
          startAt={startAt}
          emptyText={call.transcriptRemovedAt ? PRIVACY_TEXTS.transcriptRemoved : undefined}
          between={
            <>
              {call.summary && (
                <section aria-label="Summary">
                  <h3 className="font-medium text-sm">Summary</h3>
                  <p className="mt-1 text-sm" data-testid="call-summary">
                    <RedactedText text={call.summary} />
                  </p>
                </section>
              )}
              {audio && lines && <h3 className="font-medium text-sm">Transcript</h3>}
            </>
          }
        />
      </section>

      <CallQualitySection quality={call.quality ?? null} thresholds={thresholds} />

      {variables.collected.length > 0 && (
        <section aria-label="Variables">
          <h3 className="font-medium text-sm">What the agent collected</h3>
          <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid="call-variables">
            {variables.collected.map((v) => (
              <Fact key={v.key} label={v.label} value={v.value} />
            ))}
          </dl>
        </section>
      )}

      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm" data-testid="call-facts">
        {facts.map((f) => (
          <Fact key={f.label} label={f.label} value={f.value} />
        ))}
        {call.errorMessage && <Fact label="Error" value={call.errorMessage} wide />}
      </dl>

      {platformFacts.length > 0 && (
        <details className="text-sm" data-testid="call-platform-details">
          <summary className="min-h-9 cursor-pointer font-medium text-muted-foreground">
            Platform details
          </summary>
          <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1">
            {platformFacts.map((f) => (
              <Fact key={f.label} label={f.label} value={f.value} mono={f.mono} />
            ))}
          </dl>
        </details>
      )}
    </>
  );
}

function Fact({
  label,
  value,
  mono,
  wide,
}: {
  label: string;
  value: string;
  mono?: boolean;
  wide?: boolean;
}) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className={mono ? 'truncate font-mono text-xs' : 'break-words'} title={mono ? value : undefined}>
        {mono ? value : <RedactedText text={value} />}
      </dd>
    </div>
  );
}
