/** Change Password (DESIGN §6 [4]): current, new (≥ 10 characters), confirm; other sessions end. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ChangePasswordForm, MIN_PASSWORD_LENGTH } from '../../../contract/account';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { FieldShell } from '../../components/form-fields';
import { PasswordInput } from '../../components/password-input';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useChangePassword } from './mutations';
import { SettingsDialog } from './settings-dialog';

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
] as const;

export function ChangePasswordDialog() {
  const [open, setOpen] = useState(false);
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: EMPTY,
  });
  const change = useChangePassword();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset(EMPTY);
  }

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast({
            title: 'Password Changed',
            description: 'Your password has been updated. Other devices have been signed out.',
          });
          onOpenChange(false);
        },
        onError: (error) => {
          for (const [field, message] of Object.entries(serverFieldErrors(error))) {
            if (field === 'currentPassword' || field === 'newPassword') form.setError(field, { message });
          }
          failureToast('Password Change Failed', error, 'Your password could not be changed.');
        },
      },
    ),
  );

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
        {FIELDS.map(({ name, label, autoComplete }) => (
          <FieldShell
            key={name}
            id={`password-${name}`}
            label={label}
            error={form.formState.errors[name]?.message}
          >
            <Controller
              control={form.control}
              name={name}
              render={({ field }) => (
                <PasswordInput
                  id={`password-${name}`}
                  autoComplete={autoComplete}
                  aria-invalid={form.formState.errors[name] ? true : undefined}
                  {...field}
                />
              )}
            />
          </FieldShell>
        ))}
        <FormDialogFooter
          onCancel={() => onOpenChange(false)}
          pending={change.isPending}
          submitLabel="Update Password"
          pendingLabel="Updating..."
        />
      </form>
    </SettingsDialog>
  );
}
