/** Turning two-factor sign-in off: a current code from the app, or a recovery code. */
import { type FormEvent, useState } from 'react';
import { TWO_FACTOR_MESSAGES } from '../../../contract/two-factor';
import { serverMessageOf } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { FormDialogFooter } from '../form-dialog-footer';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../ui/dialog';
import { TwoFactorCodeField } from './two-factor-code-field';
import { type TwoFactorApi, useDisableTwoFactor } from './two-factor-queries';

export function TwoFactorDisableDialog({ api, disabled }: { api: TwoFactorApi; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const disable = useDisableTwoFactor(api);

  function onOpenChange(next: boolean) {
    setOpen(next);
    setCode('');
    setError(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the code');
      return;
    }
    disable.mutate(code.trim(), {
      onSuccess: () => {
        toast({ title: 'Two-factor Sign-in Off', description: 'You sign in with your password alone.' });
        onOpenChange(false);
      },
      onError: (e) => setError(serverMessageOf(e, TWO_FACTOR_MESSAGES.invalidCode)),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={disabled}>
          Turn off
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Turn off two-factor sign-in</DialogTitle>
          <DialogDescription>{TWO_FACTOR_MESSAGES.codePrompt}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Turn off two-factor sign-in">
          <TwoFactorCodeField
            id="two-factor-disable-code"
            label="Authentication code"
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(undefined);
            }}
            error={error}
          />
          <FormDialogFooter
            onCancel={() => onOpenChange(false)}
            pending={disable.isPending}
            submitLabel="Turn off"
            pendingLabel="Turning off..."
            submitVariant="destructive"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
