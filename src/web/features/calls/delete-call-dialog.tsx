/** Confirmation before a call log is deleted (SPEC §8). */
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';

export const DELETE_CALL_TEXT =
  'Are you sure you want to delete this call log? This action cannot be undone and will permanently remove the call data, including recording and transcript information.';

export interface DeleteCallDialogProps {
  /** The call waiting for confirmation; null when closed. */
  callId: string | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (callId: string) => void;
  /** Focus after a delete, when the row's button is gone. */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

export function DeleteCallDialog({
  callId,
  pending,
  onCancel,
  onConfirm,
  fallbackFocus,
}: DeleteCallDialogProps) {
  return (
    <ConfirmDeleteDialog
      fallbackFocus={fallbackFocus}
      open={callId !== null}
      title="Delete Call Log"
      description={DELETE_CALL_TEXT}
      pending={pending}
      onCancel={onCancel}
      onConfirm={() => {
        if (callId) onConfirm(callId);
      }}
    />
  );
}
