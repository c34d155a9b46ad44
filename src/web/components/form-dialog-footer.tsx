/** The footer of every form in a dialog: Cancel, then the submit button with its busy state. */
import type { ReactNode } from 'react';
import { PendingButton } from './pending-button';
import { Button } from './ui/button';
import { DialogFooter } from './ui/dialog';

interface FormDialogFooterProps {
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  submitIcon?: ReactNode;
  submitVariant?: 'default' | 'destructive';
  /** The submit waits for something besides the form (a secret still loading). */
  submitDisabled?: boolean;
}

export function FormDialogFooter({
  onCancel,
  pending,
  submitLabel,
  pendingLabel,
  submitIcon,
  submitVariant,
  submitDisabled,
}: FormDialogFooterProps) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <PendingButton
        type="submit"
        variant={submitVariant}
        pending={pending}
        pendingLabel={pendingLabel}
        icon={submitIcon}
        disabled={submitDisabled}
      >
        {submitLabel}
      </PendingButton>
    </DialogFooter>
  );
}
