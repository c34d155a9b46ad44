/**
 * The Outcomes tab: the client's ordered outcomes with their rules, a preview of what
 * an unsaved list makes of the last 30 days' calls, and saving, which re-classifies every call
 * in the background with its progress shown here.
 */
import { ArrowDown, ArrowUp, Eye, Plus, Trash2, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { formatCount } from '../../../contract/format';
import { OTHER_OUTCOME, type OutcomePreview, type Reclassification } from '../../../contract/outcomes';
import { SaveFooter } from '../../components/save-footer';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { usePreviewOutcomes, useSaveOutcomes } from './mutations';
import {
  type DraftField,
  type DraftOutcome,
  type DraftRule,
  draftProblems,
  FIELD_LABELS,
  fromDraft,
  move,
  newOutcome,
  newRule,
  OP_LABELS,
  opsFor,
  toDraft,
} from './outcomes-draft';
import { useOutcomesState } from './queries';

export function OutcomesTab() {
  const state = useOutcomesState();
  const save = useSaveOutcomes();
  const preview = usePreviewOutcomes();
  const [draft, setDraft] = useState<DraftOutcome[] | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  // The list is read once; later polls only move the progress bar, never the client's edits.
  useEffect(() => {
    if (state.data && draft === null) setDraft(toDraft(state.data.outcomes));
  }, [state.data, draft]);
  const problems = useMemo(() => (draft ? draftProblems(draft) : new Map<string, string>()), [draft]);

  const update = (next: DraftOutcome[]) => {
    setDraft(next);
    preview.reset();
  };
  const patch = (key: string, change: Partial<DraftOutcome>) =>
    draft && update(draft.map((o) => (o.key === key ? { ...o, ...change } : o)));

  function runPreview() {
    if (!draft) return;
    if (problems.size > 0) return setShowProblems(true);
    preview.mutate(fromDraft(draft), {
      onError: (error) => failureToast('Preview failed', error, 'The preview could not be made.'),
    });
  }
  function submit() {
    if (!draft) return;
    if (problems.size > 0) return setShowProblems(true);
    save.mutate(fromDraft(draft), {
      onSuccess: () =>
        toast({ title: 'Outcomes saved', description: 'Your calls are being sorted into the new outcomes.' }),
      onError: (error) => failureToast('Save failed', error, 'Your outcomes could not be saved.'),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Outcomes</CardTitle>
        <CardDescription>
          What each call achieved, in your words. A call takes the first outcome whose rules all match, so the
          order matters; calls no outcome matches are "{OTHER_OUTCOME}".
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {state.data && <ReclassificationProgress state={state.data.reclassification} />}
        {state.isError && !draft ? (
          <LoadFailed onRetry={() => state.refetch()}>Your outcomes could not be loaded.</LoadFailed>
        ) : !draft ? (
          <div className="grid gap-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-32 w-full" />
            ))}
          </div>
        ) : (
          <>
            <ol className="grid gap-3" aria-label="Outcomes, first match wins">
              {draft.map((outcome, index) => (
                <li key={outcome.key}>
                  <OutcomeEditor
                    outcome={outcome}
                    index={index}
                    count={draft.length}
                    problems={showProblems ? problems : new Map()}
                    matched={preview.data?.counts.find((c) => c.name === outcome.name.trim())?.count}
                    days={preview.data?.days}
                    onChange={(change) => patch(outcome.key, change)}
                    onMove={(by) => update(move(draft, index, by))}
                    onRemove={() => update(draft.filter((o) => o.key !== outcome.key))}
                  />
                </li>
              ))}
            </ol>
            {preview.data && <PreviewSummary preview={preview.data} />}
            <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button
                  variant="outline"
                  onClick={() => update([...draft, newOutcome(draft)])}
                  disabled={draft.length >= 20}
                >
                  <Plus aria-hidden="true" /> Add outcome
                </Button>
                <Button variant="outline" onClick={runPreview} disabled={preview.isPending}>
                  <Eye aria-hidden="true" />{' '}
                  {preview.isPending ? 'Previewing…' : 'Preview on the last 30 days'}
                </Button>
              </div>
              <SaveFooter label="Save outcomes" pending={save.isPending} onClick={submit} />
            </div>
            {showProblems && problems.size > 0 && (
              <p role="alert" className="text-destructive text-sm">
                Some outcomes need a fix before they can be saved: see the messages above.
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ReclassificationProgress({ state }: { state: Reclassification }) {
  if (state.state !== 'running') return null;
  const percent = state.total > 0 ? Math.round((state.done / state.total) * 100) : 0;
  return (
    <div className="grid gap-1.5 rounded-md border bg-muted/40 p-3" data-testid="reclassification">
      <p className="text-sm" role="status">
        Sorting your calls into the new outcomes: {formatCount(state.done)} of {formatCount(state.total)}
      </p>
      <div
        role="progressbar"
        aria-label="Calls sorted into the new outcomes"
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

function PreviewSummary({ preview }: { preview: OutcomePreview }) {
  const other = preview.counts.find((c) => c.name === OTHER_OUTCOME)?.count ?? 0;
  return (
    <p className="text-muted-foreground text-sm" role="status" data-testid="outcomes-preview">
      Of the {formatCount(preview.scanned)} {preview.sampled ? 'latest ' : ''}calls of the last {preview.days}{' '}
      days, {formatCount(other)} would be "{OTHER_OUTCOME}".
      {preview.sampled && ' (A sample: the preview reads at most 20,000 calls.)'}
    </p>
  );
}

interface OutcomeEditorProps {
  outcome: DraftOutcome;
  index: number;
  count: number;
  problems: Map<string, string>;
  /** What the last preview counted for it. */
  matched: number | undefined;
  days: number | undefined;
  onChange: (change: Partial<DraftOutcome>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function OutcomeEditor({
  outcome,
  index,
  count,
  problems,
  matched,
  days,
  onChange,
  onMove,
  onRemove,
}: OutcomeEditorProps) {
  const id = `outcome-${outcome.key}`;
  const nameProblem = problems.get(`${outcome.key}.name`);
  const valueProblem = problems.get(`${outcome.key}.value`);
  const label = outcome.name.trim() || `Outcome ${index + 1}`;
  const setRule = (i: number, change: Partial<DraftRule>) =>
    onChange({ rules: outcome.rules.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  return (
    <section
      className="grid gap-3 rounded-lg border p-3 sm:p-4"
      aria-label={label}
      data-testid="outcome-editor"
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-color`}>Colour</Label>
          <input
            id={`${id}-color`}
            type="color"
            value={outcome.color}
            onChange={(e) => onChange({ color: e.target.value })}
            className="h-9 w-12 cursor-pointer rounded-md border bg-transparent p-1"
          />
        </div>
        <div className="grid min-w-40 flex-1 gap-1.5">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            value={outcome.name}
            maxLength={60}
            aria-invalid={!!nameProblem}
            aria-describedby={nameProblem ? `${id}-name-problem` : undefined}
            onChange={(e) => onChange({ name: e.target.value })}
          />
          {nameProblem && (
            <p id={`${id}-name-problem`} className="text-destructive text-xs">
              {nameProblem}
            </p>
          )}
        </div>
        <div className="grid w-32 gap-1.5">
          <Label htmlFor={`${id}-value`}>Value per call ($)</Label>
          <Input
            id={`${id}-value`}
            inputMode="decimal"
            placeholder="None"
            value={outcome.value}
            aria-invalid={!!valueProblem}
            aria-describedby={valueProblem ? `${id}-value-problem` : undefined}
            onChange={(e) => onChange({ value: e.target.value })}
          />
          {valueProblem && (
            <p id={`${id}-value-problem`} className="text-destructive text-xs">
              {valueProblem}
            </p>
          )}
        </div>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${label} up`}
            title="Move up"
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            <ArrowUp />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${label} down`}
            title="Move down"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            <ArrowDown />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${label}`}
            title="Remove"
            className="text-destructive hover:text-destructive"
            onClick={onRemove}
          >
            <Trash2 />
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-attention`}
            checked={outcome.needsAttention}
            onCheckedChange={(needsAttention) => onChange({ needsAttention })}
          />
          <Label htmlFor={`${id}-attention`}>Needs attention</Label>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-notify`}
            checked={outcome.notify}
            onCheckedChange={(notify) => onChange({ notify })}
          />
          <Label htmlFor={`${id}-notify`}>Notify me</Label>
        </div>
        {matched !== undefined && (
          <p className="font-medium text-sm" data-testid="outcome-preview-count">
            Would match {formatCount(matched)} {matched === 1 ? 'call' : 'calls'} of the last {days} days
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <p className="text-muted-foreground text-xs">A call has this outcome when all of these are true:</p>
        {outcome.rules.map((rule, i) => (
          <RuleEditor
            key={i}
            id={`${id}-rule-${i}`}
            rule={rule}
            problem={problems.get(`${outcome.key}.rules.${i}`)}
            removable={outcome.rules.length > 1}
            onChange={(change) => setRule(i, change)}
            onRemove={() => onChange({ rules: outcome.rules.filter((_, j) => j !== i) })}
          />
        ))}
        {problems.get(`${outcome.key}.rules`) && (
          <p className="text-destructive text-xs">{problems.get(`${outcome.key}.rules`)}</p>
        )}
        <div>
          <Button
            variant="ghost"
            size="sm"
            disabled={outcome.rules.length >= 10}
            onClick={() => onChange({ rules: [...outcome.rules, newRule()] })}
          >
            <Plus aria-hidden="true" /> Add rule
          </Button>
        </div>
      </div>
    </section>
  );
}

// Object.keys is string[]; FIELD_LABELS has a label per DraftField
const FIELDS = Object.keys(FIELD_LABELS) as DraftField[];
const VALUE_HINTS: Partial<Record<DraftField, string>> = {
  disposition_tag: 'e.g. APPOINTMENT_BOOKED',
  answered_by: 'human, voicemail, no-answer',
  status: 'completed, failed, transferred',
  summary: 'a phrase',
  transcript: 'a phrase',
};

function RuleEditor({
  id,
  rule,
  problem,
  removable,
  onChange,
  onRemove,
}: {
  id: string;
  rule: DraftRule;
  problem: string | undefined;
  removable: boolean;
  onChange: (change: Partial<DraftRule>) => void;
  onRemove: () => void;
}) {
  const ops = opsFor(rule.field);
  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-center gap-2" data-testid="outcome-rule">
        <Select
          value={rule.field}
          onValueChange={(field) => {
            // The select's items are FIELDS, each a DraftField
            const next = field as DraftField;
            onChange({
              field: next,
              op: opsFor(next).includes(rule.op) ? rule.op : opsFor(next)[0],
              value: next === 'transferred' ? 'true' : rule.field === 'transferred' ? '' : rule.value,
            });
          }}
        >
          <SelectTrigger className="w-44" aria-label="Field">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {FIELDS.map((f) => (
              <SelectItem key={f} value={f}>
                {FIELD_LABELS[f]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {rule.field === 'variables' && (
          <Input
            className="w-36"
            aria-label="Variable name"
            placeholder="variable name"
            value={rule.variable}
            onChange={(e) => onChange({ variable: e.target.value })}
          />
        )}
        <Select
          value={rule.op}
          onValueChange={(op) => onChange({ op: op as DraftRule['op'] /* the items are the rule ops */ })}
        >
          <SelectTrigger className="w-32" aria-label="Comparison">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {ops.map((op) => (
              <SelectItem key={op} value={op}>
                {OP_LABELS[op]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {rule.field === 'transferred' ? (
          <Select
            value={rule.value === 'false' ? 'false' : 'true'}
            onValueChange={(value) => onChange({ value })}
          >
            <SelectTrigger className="w-28" aria-label="Value">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="true">yes</SelectItem>
              <SelectItem value="false">no</SelectItem>
            </SelectContent>
          </Select>
        ) : (
          <Input
            id={`${id}-value`}
            className="min-w-32 flex-1"
            aria-label="Value"
            inputMode={
              rule.field === 'duration' || rule.op === 'gte' || rule.op === 'lte' ? 'numeric' : undefined
            }
            placeholder={VALUE_HINTS[rule.field] ?? ''}
            value={rule.value}
            maxLength={200}
            aria-invalid={!!problem}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => onChange({ value: e.target.value })}
          />
        )}
        {removable && (
          <Button variant="ghost" size="icon" aria-label="Remove rule" title="Remove rule" onClick={onRemove}>
            <X />
          </Button>
        )}
      </div>
      {problem && (
        <p id={`${id}-problem`} className="text-destructive text-xs">
          {problem}
        </p>
      )}
    </div>
  );
}
