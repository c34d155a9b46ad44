/**
 * Which call log columns a person sees, remembered on the server per person (so it
 * follows them to any browser; the quality column, in this browser: log-columns.ts),
 * and the "Columns" dialog that chooses them.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Columns3 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { UiPreferences } from '../../../contract/calls';
import { Button } from '../../components/ui/button';
import { apiJson, getJson } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useSeededQuery } from '../../lib/first-screen-pending';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import type { CallSource } from './call-source';
import { type LogColumn, storedColumns, visibleColumns } from './log-columns';
import { preferencesKey } from './query-keys';

export { COLUMN_LABELS } from './log-column-labels';

// The dialog (its checkboxes) is loaded and mounted once first opened: not on the first screen.
const ColumnChooserDialog = lazy(() => import('./column-chooser-dialog'));

/** The visible columns, in the log's order, and how to change them. */
export function useCallLogColumns(source: CallSource) {
  const url = source.preferencesUrl;
  const queryClient = useQueryClient();
  const [local, setLocal] = useState<UiPreferences['callLogColumns']>(null);
  // Seeded by the first screen's read.
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
  const dialogMounted = useHasBeenTrue(open);
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
      {dialogMounted && (
        <Suspense fallback={null}>
          <ColumnChooserDialog
            open={open}
            onOpenChange={setOpen}
            draft={draft}
            setDraft={setDraft}
            onSave={(columns) => {
              onChange(columns);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
