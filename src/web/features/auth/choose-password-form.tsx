/**
 * The first sign-in with a password the agency chose: the server answers nothing else until the
 * person picks their own, so this form is all they see; on success the session is read again and
 * the dashboard opens.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { PasswordChangeFields, usePasswordChange } from '../../components/password-change';
import { PendingButton } from '../../components/pending-button';
import { sessionKeys } from '../../lib/session';
import { toast } from '../../lib/use-toast';

const LABELS = {
  currentPassword: 'Temporary password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
};

export function ChoosePasswordForm() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { form, submit, pending } = usePasswordChange(async () => {
    await queryClient.refetchQueries({ queryKey: sessionKeys.client });
    toast({ title: 'Password Changed', description: 'Welcome to your dashboard' });
    navigate('/dashboard', { replace: true });
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Choose a new password">
      <PasswordChangeFields form={form} idPrefix="choose" labels={LABELS} />
      <PendingButton type="submit" pending={pending} pendingLabel="Saving…">
        Save and continue
      </PendingButton>
    </form>
  );
}
