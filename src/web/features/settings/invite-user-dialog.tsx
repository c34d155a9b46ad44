/**
 * "Invite user": e-mail, name, role and extras; the server e-mails the single-use link.
 * A refusal (an e-mail that is already a user, the daily cap) is shown in the server's words.
 */
import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { InviteUserBody, type SessionUser } from '../../../contract/teams';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { FieldShell } from '../../components/form-fields';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { serverMessageOf } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { accessToSend, type UserAccess, UserAccessFields } from './user-access-fields';
import { useInviteUser } from './users-queries';

const START: UserAccess = { role: 'viewer', permissions: [] };

export function InviteUserDialog({ actor }: { actor: Pick<SessionUser, 'permissions'> }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [access, setAccess] = useState<UserAccess>(START);
  const [emailError, setEmailError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const invite = useInviteUser();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setEmail('');
      setName('');
      setAccess(START);
      setEmailError(undefined);
      setRefusal(undefined);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(undefined);
    const parsed = InviteUserBody.safeParse({ email, name: name || undefined, ...accessToSend(access) });
    if (!parsed.success) {
      setEmailError(parsed.error.issues.find((i) => i.path[0] === 'email')?.message ?? 'Check the form');
      return;
    }
    setEmailError(undefined);
    invite.mutate(parsed.data, {
      onSuccess: (user) => {
        toast({ title: 'Invitation sent', description: `${user.email} has been e-mailed a link to join.` });
        onOpenChange(false);
      },
      onError: (error) => setRefusal(serverMessageOf(error, 'The invitation could not be sent.')),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Invite user
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite user</DialogTitle>
          <DialogDescription>
            We e-mail them a link to choose their name and password. It works once, for 7 days.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Invite user">
          <FieldShell id="invite-email" label="E-mail" required error={emailError}>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? 'invite-email-error' : undefined}
            />
          </FieldShell>
          <FieldShell id="invite-name" label="Name" hint="Optional: they can set it themselves.">
            <Input
              id="invite-name"
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </FieldShell>
          <UserAccessFields idPrefix="invite" actor={actor} value={access} onChange={setAccess} />
          {refusal && (
            <p role="alert" className="text-destructive text-sm" data-testid="invite-refusal">
              {refusal}
            </p>
          )}
          <FormDialogFooter
            onCancel={() => onOpenChange(false)}
            pending={invite.isPending}
            submitLabel="Send invitation"
            pendingLabel="Sending..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
