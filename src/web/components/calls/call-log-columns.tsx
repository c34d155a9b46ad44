/**
 * Which call log columns a person sees (issue 15), remembered on the server per person (so it
 * follows them to any browser; the quality column, issue 39, in this browser: log-columns.ts),
 * and the "Columns" dialog that chooses them.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Columns3 } from 'lucide-react';
import { useId, useState } from 'react';
import type { UiPreferences } from '../../../contract/calls';
import type { CallSource } from '../../features/calls/call-source';
import { preferencesKey } from '../../features/calls/query-keys';
import { apiJson, getJson } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useSeededQuery } from '../../lib/first-screen-pending';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
import { Label } from '../ui/label';
import { LOG_COLUMNS, type LogColumn, isShowableChoice, storedColumns, visibleColumns } from './log-columns';

/** SPEC's columns in SPEC's order, then the call's outcome, its quality and cost. */
export const COLUMN_LABELS: Record<LogColumn, string> = {
  callId: 'Call ID',
  fromTo: 'From/To',
  duration: 'Duration',
  status: 'Status',
  pathway: 'Pathway',
  created: 'Created',
  outcome: 'Outcome',
  quality: 'Quality',
  cost: 'Cost',
};

/** The visible columns, in the log's order, and how to change them. */
export function useCallLogColumns(source: CallSource) {
  const url = source.preferencesUrl;
  const queryClient = useQueryClient();
  const [local, setLocal] = useState<UiPreferences['callLogColumns']>(null);
  // Seeded by the first screen's read (issue 41).
  const stored = useSeededQuery({
    queryKey: preferencesKey(url ?? ''),
    queryFn: () => getJson<UiPreferences>(url ?? ''),
    enabled: !!url,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const save = useMutation({
    mutationFn: (prefs: UiPreferences) => apiJson<UiPreferences>('PUT', url ?? '', prefs),
    onMutate: (prefs) => queryClient.setQueryData(preferencesKey(url ?? ''), prefs),
    onError: (error) => {
      failureToast('Could not remember the columns', error);
      void queryClient.invalidateQueries({ queryKey: preferencesKey(url ?? '') });
    },
  });
  const chosen = (url ? stored.data?.callLogColumns : local) ?? null;
  const visible = visibleColumns(chosen);
  const setVisible = (columns: LogColumn[]) => {
    const value = storedColumns(columns);
    if (url) save.mutate({ callLogColumns: value });
    else setLocal(value);
  };
  return { visible, setVisible };
}

export function ColumnChooser({
  visible,
  onChange,
}: {
  visible: readonly LogColumn[];
  onChange: (columns: LogColumn[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<LogColumn[]>([...visible]);
  const id = useId();
  const showable = isShowableChoice(draft);
  const toggle = (column: LogColumn, on: boolean) =>
    setDraft((d) => (on ? [...d, column] : d.filter((c) => c !== column)));
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          setDraft([...visible]);
          setOpen(true);
        }}
      >
        <Columns3 aria-hidden="true" /> Columns
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-sm">
          <DialogHeader>
            <DialogTitle>Columns</DialogTitle>
            <DialogDescription>Choose what the call log shows. Your choice is remembered.</DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-3">
            <legend className="sr-only">Visible columns</legend>
            {LOG_COLUMNS.map((column) => (
              <div key={column} className="flex items-center gap-2">
                <Checkbox
                  id={`${id}-${column}`}
                  checked={draft.includes(column)}
                  onCheckedChange={(on) => toggle(column, on === true)}
                />
                <Label htmlFor={`${id}-${column}`}>{COLUMN_LABELS[column]}</Label>
              </div>
            ))}
          </fieldset>
          {!showable && (
            <p role="alert" className="text-destructive text-sm">
              Keep at least one column
            </p>
          )}
          <DialogFooter>
            <Button variant="ghost" onClick={() => setDraft([...LOG_COLUMNS])}>
              Show all
            </Button>
            <Button
              disabled={!showable}
              onClick={() => {
                onChange(draft);
                setOpen(false);
              }}
            >
              Save columns
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
