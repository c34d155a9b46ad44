/** Change Password (DESIGN §6 [4]): current, new (≥ 10 characters), confirm; other sessions end. */
import { useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../contract/account';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import {
  EMPTY_PASSWORD_CHANGE,
  PasswordChangeFields,
  usePasswordChange,
} from '../../components/password-change';
import { toast } from '../../lib/use-toast';
import { SettingsDialog } from './settings-dialog';

const LABELS = {
  currentPassword: 'Current Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm New Password',
};

export function ChangePasswordDialog() {
  const [open, setOpen] = useState(false);
  const { form, submit, pending } = usePasswordChange(() => {
    toast({
      title: 'Password Changed',
      description: 'Your password has been updated. Other devices have been signed out.',
    });
    onOpenChange(false);
  });

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset(EMPTY_PASSWORD_CHANGE);
  }

  return (
    <SettingsDialog
      title="Change Password"
      description={
        <>
          Use at least {MIN_PASSWORD_LENGTH} characters. You stay signed in here; other devices are signed
          out.
        </>
      }
      open={open}
      onOpenChange={onOpenChange}
    >
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Change password">
        <PasswordChangeFields form={form} idPrefix="password" labels={LABELS} />
        <FormDialogFooter
          onCancel={() => onOpenChange(false)}
          pending={pending}
          submitLabel="Update Password"
          pendingLabel="Updating..."
        />
      </form>
    </SettingsDialog>
  );
}
