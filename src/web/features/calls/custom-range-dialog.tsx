/**
 * "Custom range": two calendar days, both included, in the account's time zone (named,
 * since the days are the account's, not the browser's). The browser's own date picker is the
 * calendar: keyboard-operable and localized everywhere without another dependency.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { MAX_CUSTOM_RANGE_DAYS } from '../../../contract/calls';
import { FieldShell } from '../../components/form-fields';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';

export { rangeLabel } from './custom-range-label';

const DAY_MS = 24 * 60 * 60 * 1000;
const RANGE_ENDS = [
  { key: 'from', label: 'From' },
  { key: 'to', label: 'To' },
] as const;

/** Today's date in a zone (YYYY-MM-DD), the latest day a range may end on. */
export function todayIn(timeZone: string | undefined, now = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Why a range cannot be applied, or null. */
export function rangeProblem(from: string, to: string): string | null {
  if (!from || !to) return 'Choose both days';
  if (from > to) return 'The first day must not be after the last';
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > MAX_CUSTOM_RANGE_DAYS) return `Choose at most ${MAX_CUSTOM_RANGE_DAYS} days`;
  return null;
}

export interface CustomRangeDialogProps {
  open: boolean;
  /** The range shown when the dialog opens ('' for none). */
  from: string;
  to: string;
  /** The account's IANA zone; undefined when the page does not know it. */
  timeZone?: string;
  /** Whose days they are, when not one account's (the agency's console: each client's own). */
  daysOf?: string;
  onApply: (range: { from: string; to: string }) => void;
  onCancel: () => void;
}

export function CustomRangeDialog({
  open,
  from,
  to,
  timeZone,
  daysOf,
  onApply,
  onCancel,
}: CustomRangeDialogProps) {
  const today = todayIn(timeZone);
  const [draft, setDraft] = useState({ from, to });
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    const last = to || today;
    setDraft({ from: from || new Date(Date.parse(last) - 6 * DAY_MS).toISOString().slice(0, 10), to: last });
    setProblem(null);
  }, [open, from, to, today]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const why = rangeProblem(draft.from, draft.to);
    setProblem(why);
    if (!why) onApply(draft);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Custom range</DialogTitle>
          <DialogDescription>
            Both days are included, counted in{' '}
            {daysOf ?? (timeZone ? <strong>{timeZone}</strong> : "the account's time zone")}.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            {RANGE_ENDS.map(({ key, label }) => (
              <FieldShell key={key} id={`range-${key}`} label={label}>
                <Input
                  id={`range-${key}`}
                  type="date"
                  value={draft[key]}
                  max={today}
                  onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                  aria-describedby={problem ? 'range-problem' : undefined}
                />
              </FieldShell>
            ))}
          </div>
          {problem && (
            <p id="range-problem" role="alert" className="text-destructive text-sm">
              {problem}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit">Apply range</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
