/** Change a user's role and extras. The server keeps the last Owner; its refusal is shown as it says it. */
import { type FormEvent, useState } from 'react';
import type { ClientUser, SessionUser } from '../../../contract/teams';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { serverMessageOf } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { accessToSend, type UserAccess, UserAccessFields } from './user-access-fields';
import { useUpdateUser } from './users-queries';

export function EditUserDialog({
  user,
  actor,
  onClose,
}: {
  /** The user being changed; null: closed. */
  user: ClientUser | null;
  actor: Pick<SessionUser, 'permissions'>;
  onClose: () => void;
}) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {user && <EditUserForm key={user.id} user={user} actor={actor} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function EditUserForm({
  user,
  actor,
  onClose,
}: {
  user: ClientUser;
  actor: Pick<SessionUser, 'permissions'>;
  onClose: () => void;
}) {
  const [access, setAccess] = useState<UserAccess>({ role: user.role, permissions: user.permissions });
  const [refusal, setRefusal] = useState<string>();
  const update = useUpdateUser();

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(undefined);
    update.mutate(
      { id: user.id, ...accessToSend(access) },
      {
        onSuccess: () => {
          toast({ title: 'User updated', description: `${user.name || user.email}'s access was changed.` });
          onClose();
        },
        onError: (error) => setRefusal(serverMessageOf(error, 'The change could not be saved.')),
      },
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Change access</DialogTitle>
        <DialogDescription>
          {user.name ? `${user.name} (${user.email})` : user.email}: their role and extra permissions.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Change access">
        <UserAccessFields idPrefix="edit" actor={actor} value={access} onChange={setAccess} />
        {refusal && (
          <p role="alert" className="text-destructive text-sm">
            {refusal}
          </p>
        )}
        <FormDialogFooter
          onCancel={onClose}
          pending={update.isPending}
          submitLabel="Save"
          pendingLabel="Saving..."
        />
      </form>
    </>
  );
}
