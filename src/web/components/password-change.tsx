/**
 * Changing one's own password, shared by Settings › Security's dialog and the first sign-in's
 * "Choose a new password" page: the form, the request, the server's field messages put beside
 * their fields, and the three password inputs. Each caller keeps its own labels, success and
 * buttons.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Controller, type UseFormReturn, useForm } from 'react-hook-form';
import { type ChangePasswordBody, ChangePasswordForm } from '../../contract/account';
import { apiJson, serverFieldErrors } from '../lib/api';
import { failureToast } from '../lib/failure-toast';
import { FieldShell } from './form-fields';
import { PasswordInput } from './password-input';

export const EMPTY_PASSWORD_CHANGE: ChangePasswordForm = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};

export interface PasswordChangeLabels {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The form and its request; `submit` sends it and calls `onSuccess` once the server took it. */
export function usePasswordChange(onSuccess: () => void | Promise<void>) {
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: EMPTY_PASSWORD_CHANGE,
  });
  const change = useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiJson<{ success: true }>('POST', '/api/client/change-password', body),
  });
  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess,
        onError: (error) => {
          for (const [field, message] of Object.entries(serverFieldErrors(error))) {
            if (field === 'currentPassword' || field === 'newPassword') form.setError(field, { message });
          }
          failureToast('Password Change Failed', error, 'Your password could not be changed.');
        },
      },
    ),
  );
  return { form, submit, pending: change.isPending };
}

const FIELDS = [
  { name: 'currentPassword', autoComplete: 'current-password' },
  { name: 'newPassword', autoComplete: 'new-password' },
  { name: 'confirmPassword', autoComplete: 'new-password' },
] as const;

export function PasswordChangeFields({
  form,
  idPrefix,
  labels,
}: {
  form: UseFormReturn<ChangePasswordForm>;
  idPrefix: string;
  labels: PasswordChangeLabels;
}) {
  return FIELDS.map(({ name, autoComplete }) => (
    <FieldShell
      key={name}
      id={`${idPrefix}-${name}`}
      label={labels[name]}
      error={form.formState.errors[name]?.message}
    >
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <PasswordInput
            id={`${idPrefix}-${name}`}
            autoComplete={autoComplete}
            aria-invalid={form.formState.errors[name] ? true : undefined}
            {...field}
          />
        )}
      />
    </FieldShell>
  ));
}
