/**
 * Giving a client's Owner a new temporary password: first a confirmation that it replaces the
 * one they have (and signs them out), then the password in a dialog that stays until closed,
 * since the agency has to pass it on. The Owner chooses their own at the first sign-in.
 */
import type { AdminClientListItem } from '../../../contract/admin';
import { clientName } from '../../../contract/admin';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { CopyField } from '../../components/copy-field';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';

export interface IssuedCredentials {
  name: string;
  email: string;
  temporaryPassword: string;
}

export function ConfirmCredentialsDialog({
  target,
  pending,
  onCancel,
  onConfirm,
}: {
  target: AdminClientListItem | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (client: AdminClientListItem) => void;
}) {
  return (
    <ConfirmDeleteDialog
      open={target !== null}
      title={`New password for ${target ? clientName(target) : ''}?`}
      description={
        <>
          This replaces the Owner’s current password for <strong>{target?.email}</strong>: it stops working at
          once and they are signed out. At their next sign-in they choose their own.
        </>
      }
      confirmLabel="Replace password"
      pendingLabel="Generating…"
      pending={pending}
      onCancel={onCancel}
      onConfirm={() => target && onConfirm(target)}
    />
  );
}

export function IssuedCredentialsDialog({
  issued,
  onClose,
}: {
  issued: IssuedCredentials | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={issued !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="credentials">
        <DialogHeader>
          <DialogTitle>Login credentials for {issued?.name}</DialogTitle>
          <DialogDescription>
            Shown once. Pass them on in person or through a password manager; the Owner chooses a new password
            at the first sign-in.
          </DialogDescription>
        </DialogHeader>
        {issued && (
          <div className="grid gap-3">
            <CopyField id="issued-client-email" label="Email" value={issued.email} />
            <CopyField
              id="issued-client-password"
              label="Temporary password"
              value={issued.temporaryPassword}
            />
          </div>
        )}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
