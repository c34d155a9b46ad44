/**
 * /accept-invite?token=…: the invited person chooses a name and password (the same
 * rules as the login's), then is signed in and on the dashboard. The same link mechanism carries
 * a password reset the agency sent (`&reset=1`): only a new password is asked. An unknown, used,
 * replaced or expired link gets the server's words and a way to sign in instead.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type ClientLoginResponse, MIN_PASSWORD_LENGTH } from '../../../contract/auth';
import { AcceptInvitationBody } from '../../../contract/teams';
import { FieldShell } from '../../components/form-fields';
import { PasswordInput } from '../../components/password-input';
import { PendingButton } from '../../components/pending-button';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { ApiError, apiJson, serverFieldErrors, serverMessageOf } from '../../lib/api';
import { sessionKeys } from '../../lib/session';
import { toast } from '../../lib/use-toast';

/** Answers that mean the link itself is no good (400 without field errors, 410 expired, 401 account off). */
function isDeadLink(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 410 || error.status === 401) return true;
  return error.status === 400 && Object.keys(serverFieldErrors(error)).length === 0;
}

function useAcceptInvitation() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (body: AcceptInvitationBody) =>
      apiJson<ClientLoginResponse | { twoFactorRequired: true }>(
        'POST',
        '/api/client/invitations/accept',
        body,
      ),
    onSuccess: (answer) => {
      // A reset link is not a second factor: someone with two-factor sign-in signs in with the
      // new password and a code on the login page.
      if ('twoFactorRequired' in answer) {
        navigate('/client-login');
        return;
      }
      // A new identity: nothing cached for whoever used this browser before may carry over.
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.client, answer.client);
      void queryClient.invalidateQueries({ queryKey: sessionKeys.client });
      navigate('/dashboard');
    },
  });
}

export function DeadLink({ message }: { message: string }) {
  return (
    <div className="grid gap-4 text-center" role="alert" data-testid="invite-dead-link">
      <p className="text-sm">{message}</p>
      <Button asChild variant="outline">
        <Link href="/client-login">Go to sign in</Link>
      </Button>
    </div>
  );
}

export function AcceptInviteForm({ token, reset }: { token: string; reset: boolean }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const accept = useAcceptInvitation();

  if (!token) return <DeadLink message="This link is incomplete: open the link from the e-mail again." />;
  if (accept.isError && isDeadLink(accept.error))
    return <DeadLink message={serverMessageOf(accept.error, 'This link no longer works.')} />;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const parsed = AcceptInvitationBody.safeParse({ token, name: reset ? undefined : name, password });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    }
    if (!reset && !name.trim()) found.name = 'Enter your name';
    if (password !== confirm) found.confirm = 'The passwords do not match';
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    accept.mutate(parsed.data, {
      onSuccess: (answer) =>
        toast(
          'twoFactorRequired' in answer
            ? { title: 'Password set', description: 'Sign in with your new password and your code.' }
            : {
                title: reset ? 'Password set' : 'Welcome',
                description: reset ? 'You are signed in with your new password.' : 'Your account is ready.',
              },
        ),
      onError: (error) => {
        if (!isDeadLink(error)) setErrors(serverFieldErrors(error));
      },
    });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-5"
      aria-label={reset ? 'Set a new password' : 'Accept invitation'}
    >
      {!reset && (
        <FieldShell id="invite-accept-name" label="Your name" required error={errors.name}>
          <Input
            id="invite-accept-name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? 'invite-accept-name-error' : undefined}
          />
        </FieldShell>
      )}
      <FieldShell
        id="invite-accept-password"
        label={reset ? 'New password' : 'Password'}
        required
        error={errors.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
      >
        <PasswordInput
          id="invite-accept-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'invite-accept-password-error' : undefined}
        />
      </FieldShell>
      <FieldShell id="invite-accept-confirm" label="Confirm password" required error={errors.confirm}>
        <PasswordInput
          id="invite-accept-confirm"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? 'invite-accept-confirm-error' : undefined}
        />
      </FieldShell>
      {accept.isError && !isDeadLink(accept.error) && Object.keys(errors).length === 0 && (
        <p role="alert" className="text-destructive text-sm">
          {serverMessageOf(accept.error, 'Something went wrong; please try again.')}
        </p>
      )}
      <PendingButton
        type="submit"
        size="lg"
        className="w-full"
        pending={accept.isPending}
        pendingLabel="Signing in..."
      >
        {reset ? 'Set password and sign in' : 'Join and sign in'}
      </PendingButton>
    </form>
  );
}
