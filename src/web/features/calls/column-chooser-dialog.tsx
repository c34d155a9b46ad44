/** The call log's "Columns" dialog, loaded by `ColumnChooser` when first opened. */
import { type Dispatch, type SetStateAction, useId } from 'react';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { columnLabel } from './log-column-labels';
import { isShowableChoice, LOG_COLUMNS, type LogColumn } from './log-columns';

export default function ColumnChooserDialog({
  open,
  onOpenChange,
  draft,
  setDraft,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  draft: LogColumn[];
  setDraft: Dispatch<SetStateAction<LogColumn[]>>;
  onSave: (columns: LogColumn[]) => void;
}) {
  const id = useId();
  const showPlatform = useShowPlatformDetails();
  const showable = isShowableChoice(draft);
  const toggle = (column: LogColumn, on: boolean) =>
    setDraft((d) => (on ? [...d, column] : d.filter((c) => c !== column)));
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
              <Label htmlFor={`${id}-${column}`}>{columnLabel(column, showPlatform)}</Label>
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
          <Button disabled={!showable} onClick={() => onSave(draft)}>
            Save columns
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
