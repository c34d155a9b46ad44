/**
 * The first sign-in with a password the agency chose (issue: owner credentials): the server
 * answers nothing else until the person picks their own, so this form is all they see; on success
 * the session is read again and the dashboard opens.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { type ChangePasswordBody, ChangePasswordForm } from '../../../contract/account';
import { FieldShell } from '../../components/form-fields';
import { PasswordInput } from '../../components/password-input';
import { PendingButton } from '../../components/pending-button';
import { apiJson, serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { sessionKeys } from '../../lib/session';
import { toast } from '../../lib/use-toast';

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS = [
  { name: 'currentPassword', label: 'Temporary password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
] as const;

export function ChoosePasswordForm() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: EMPTY,
  });
  const change = useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiJson<{ success: true }>('POST', '/api/client/change-password', body),
  });

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: async () => {
          await queryClient.refetchQueries({ queryKey: sessionKeys.client });
          toast({ title: 'Password Changed', description: 'Welcome to your dashboard' });
          navigate('/dashboard', { replace: true });
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
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Choose a new password">
      {FIELDS.map(({ name, label, autoComplete }) => (
        <FieldShell
          key={name}
          id={`choose-${name}`}
          label={label}
          error={form.formState.errors[name]?.message}
        >
          <Controller
            control={form.control}
            name={name}
            render={({ field }) => (
              <PasswordInput
                id={`choose-${name}`}
                autoComplete={autoComplete}
                aria-invalid={form.formState.errors[name] ? true : undefined}
                {...field}
              />
            )}
          />
        </FieldShell>
      ))}
      <PendingButton type="submit" pending={change.isPending} pendingLabel="Saving…">
        Save and continue
      </PendingButton>
    </form>
  );
}
