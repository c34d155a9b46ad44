/** Confirmation before a client and all their data are deleted (SPEC §2, §8). */
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useDeleteClient } from './mutations';

export interface DeleteTarget {
  id: string;
  name: string;
}

export function DeleteClientDialog({
  target,
  onClose,
}: {
  target: DeleteTarget | null;
  onClose: () => void;
}) {
  const remove = useDeleteClient();

  function confirm() {
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast({ title: 'Client deleted successfully' });
        onClose();
      },
      onError: (error) => failureToast('Failed to delete client', error),
    });
  }

  return (
    <ConfirmDeleteDialog
      open={target !== null}
      title="Delete Client"
      description={
        <>
          Are you sure you want to delete <strong className="text-foreground">{target?.name}</strong>? This
          permanently removes the client with all their calls, recordings, transcripts, statistics,
          subscription and login access. This action cannot be undone.
        </>
      }
      pending={remove.isPending}
      onCancel={onClose}
      onConfirm={confirm}
    />
  );
}
