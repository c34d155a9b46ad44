/**
 * "Quality thresholds": what puts a call in Needs attention for how the agent spoke:
 * slow answers, dead air, caller interruptions, each with its unit, each can be turned off, the
 * defaults said. A save sends only what changed; the server then re-classifies the calls, whose
 * progress shows here as the outcomes editor shows its own. Settings (Outcomes tab, the
 * `outcomes` permission) and the admin's client view render it with their endpoints.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Gauge } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatCount } from '../../../../contract/format';
import type { Reclassification } from '../../../../contract/outcomes';
import type { QualityThresholdsState } from '../../../../contract/quality';
import { SaveFooter } from '../../../components/save-footer';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { Switch } from '../../../components/ui/switch';
import { failureToast } from '../../../lib/failure-toast';
import { toast } from '../../../lib/use-toast';
import type { QualityThresholdsApi } from '../call-source';
import { useSaveQualityThresholds } from '../mutations';
import { useQualityThresholds, useReclassification } from '../queries';
import { callKeys } from '../query-keys';
import { measuringText } from './quality-cards';
import {
  defaultHint,
  parseThresholds,
  THRESHOLD_FIELDS,
  THRESHOLD_SPECS,
  type ThresholdField,
  type ThresholdsDraft,
  thresholdsDraft,
  thresholdsPatch,
} from './quality-thresholds';

export interface QualityThresholdsCardProps {
  api: QualityThresholdsApi;
  /** Keeps ids apart where two cards could meet. */
  idPrefix?: string;
}

export function QualityThresholdsCard({ api, idPrefix = 'quality-thresholds' }: QualityThresholdsCardProps) {
  const state = useQualityThresholds(api.thresholds);
  return (
    <Card data-testid="quality-thresholds">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gauge className="size-4" aria-hidden="true" />
          <h2>Quality thresholds</h2>
        </CardTitle>
        <CardDescription>
          A call that crosses one of these is put in Needs attention, with the reason. Turn a check off to
          stop flagging calls for it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Reclassifying api={api} />
        {state.data?.measuring && (
          <p
            role="status"
            className="rounded-md border bg-muted/40 p-3 text-sm"
            data-testid="quality-measuring"
          >
            {measuringText(state.data.measuring)}
          </p>
        )}
        {state.data ? (
          <ThresholdsForm api={api} idPrefix={idPrefix} saved={state.data} />
        ) : state.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The quality thresholds could not be loaded.
          </p>
        ) : (
          <Skeleton className="h-48 w-full" aria-label="Loading the quality thresholds" />
        )}
      </CardContent>
    </Card>
  );
}

function ThresholdsForm({
  api,
  idPrefix,
  saved,
}: {
  api: QualityThresholdsApi;
  idPrefix: string;
  saved: QualityThresholdsState;
}) {
  const save = useSaveQualityThresholds(api);
  // Read once; later reads (the measuring poll) never replace what is being edited.
  const [draft, setDraft] = useState<ThresholdsDraft>(() =>
    thresholdsDraft(saved.thresholds, saved.defaults),
  );
  const [problems, setProblems] = useState<Partial<Record<ThresholdField, string>>>({});

  const edit = (field: ThresholdField, change: Partial<ThresholdsDraft[ThresholdField]>) => {
    setDraft((d) => ({ ...d, [field]: { ...d[field], ...change } }));
    if (problems[field]) setProblems((p) => ({ ...p, [field]: undefined }));
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseThresholds(draft);
    if (Object.keys(parsed.problems).length > 0) return setProblems(parsed.problems);
    setProblems({});
    const patch = thresholdsPatch(saved.thresholds, parsed.thresholds);
    if (!patch) {
      toast({ title: 'Nothing to save', description: 'The quality thresholds are as saved.' });
      return;
    }
    save.mutate(patch, {
      onSuccess: (next) => {
        setDraft(thresholdsDraft(next.thresholds, next.defaults));
        toast({
          title: 'Quality thresholds saved',
          description: 'Your calls are being checked again against the new thresholds.',
        });
      },
      onError: (error) => failureToast('Save failed', error, 'The quality thresholds could not be saved.'),
    });
  }

  return (
    <form className="grid gap-4" aria-label="Quality thresholds" noValidate onSubmit={onSubmit}>
      <fieldset className="grid gap-3 md:grid-cols-3" disabled={save.isPending}>
        <legend className="sr-only">Put a call in Needs attention when</legend>
        {THRESHOLD_FIELDS.map((field) => {
          const spec = THRESHOLD_SPECS[field];
          const id = `${idPrefix}-${field}`;
          const { on, text } = draft[field];
          const problem = problems[field];
          return (
            <div key={field} className="grid content-start gap-2 rounded-md border p-3" data-testid={id}>
              <div className="flex items-center justify-between gap-2">
                <Label htmlFor={`${id}-on`}>{spec.label}</Label>
                <Switch
                  id={`${id}-on`}
                  checked={on}
                  aria-describedby={`${id}-rule`}
                  onCheckedChange={(checked) => edit(field, { on: checked })}
                />
              </div>
              <div className="flex items-center gap-2">
                <Label htmlFor={`${id}-value`} className="sr-only">
                  {spec.label}, in {spec.unit === 's' ? 'seconds' : spec.unit}
                </Label>
                <Input
                  id={`${id}-value`}
                  inputMode={spec.decimals === 0 ? 'numeric' : 'decimal'}
                  autoComplete="off"
                  className="w-24"
                  value={text}
                  disabled={!on}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : `${id}-rule`}
                  onChange={(e) => edit(field, { text: e.target.value })}
                />
                <span className="text-muted-foreground text-sm" aria-hidden="true">
                  {spec.unit}
                </span>
              </div>
              {problem ? (
                <p id={`${id}-problem`} role="alert" className="text-destructive text-xs">
                  {problem}
                </p>
              ) : (
                <p id={`${id}-rule`} className="text-muted-foreground text-xs">
                  {on ? `${spec.rule(text.trim() || '…')}.` : 'Off: no call is flagged for this.'}{' '}
                  {defaultHint(field, saved.defaults)}.
                </p>
              )}
            </div>
          );
        })}
      </fieldset>
      <SaveFooter type="submit" label="Save quality thresholds" pending={save.isPending} />
    </form>
  );
}

/**
 * The re-classification a save starts, as the outcomes editor shows it; once it ends, every calls
 * read is refreshed (Needs attention and the log's flags follow the new thresholds).
 */
function Reclassifying({ api }: { api: QualityThresholdsApi }) {
  const query = useReclassification(api);
  const queryClient = useQueryClient();
  const wasRunning = useRef(false);
  const state = query.data;
  useEffect(() => {
    const running = state?.state === 'running';
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: callKeys.all });
    wasRunning.current = running;
  }, [state, queryClient]);
  return state ? <ReclassificationProgress state={state} /> : null;
}

function ReclassificationProgress({ state }: { state: Reclassification }) {
  if (state.state !== 'running') return null;
  const percent = state.total > 0 ? Math.round((state.done / state.total) * 100) : 0;
  return (
    <div className="grid gap-1.5 rounded-md border bg-muted/40 p-3" data-testid="quality-reclassification">
      <p className="text-sm" role="status">
        Checking your calls against the thresholds: {formatCount(state.done)} of {formatCount(state.total)}
      </p>
      <div
        role="progressbar"
        aria-label="Calls checked against the thresholds"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
