/**
 * Setting up two-factor sign-in: opening the dialog asks for a new secret; the QR code (an <img>
 * of the server's SVG) and the key for typing by hand; a code from the app confirms it, and the
 * ten recovery codes are shown once, with Copy and Download.
 */
import { type FormEvent, useState } from 'react';
import { TWO_FACTOR_MESSAGES, type TwoFactorSetup } from '../../../contract/two-factor';
import { serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { FormDialogFooter } from '../form-dialog-footer';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../ui/dialog';
import { Label } from '../ui/label';
import { Skeleton } from '../ui/skeleton';
import { RecoveryCodes } from './recovery-codes';
import { TwoFactorCodeField } from './two-factor-code-field';
import {
  manualKeyOf,
  svgDataUrl,
  type TwoFactorApi,
  useEnableTwoFactor,
  useStartTwoFactorSetup,
} from './two-factor-queries';

export function TwoFactorSetupDialog({ api, onDone }: { api: TwoFactorApi; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useStartTwoFactorSetup(api);
  const enable = useEnableTwoFactor(api);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      start.mutate(undefined, {
        onSuccess: setSetup,
        onError: (e) => failureToast('Set-up Failed', e),
      });
      return;
    }
    // Closing after the codes were shown: only now the card shows "On" (the codes stay on screen until then).
    if (recoveryCodes) onDone();
    setSetup(null);
    setCode('');
    setError(undefined);
    setRecoveryCodes(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the code');
      return;
    }
    enable.mutate(code.trim(), {
      onSuccess: ({ recoveryCodes: codes }) => {
        setRecoveryCodes(codes);
        toast({ title: 'Two-factor Sign-in On', description: 'Save your recovery codes now.' });
      },
      onError: (e) => setError(serverMessageOf(e, TWO_FACTOR_MESSAGES.invalidCode)),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Set up two-factor sign-in</Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>
            {recoveryCodes ? 'Save your recovery codes' : 'Set up two-factor sign-in'}
          </DialogTitle>
          <DialogDescription>
            {recoveryCodes
              ? 'Two-factor sign-in is on.'
              : 'Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy…), then enter the 6-digit code it shows.'}
          </DialogDescription>
        </DialogHeader>
        {recoveryCodes ? (
          <>
            <RecoveryCodes codes={recoveryCodes} />
            <DialogFooter>
              <Button type="button" onClick={() => onOpenChange(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Set up two-factor sign-in">
            {setup ? (
              <div className="grid justify-items-center gap-3">
                <img
                  src={svgDataUrl(setup.qrSvg)}
                  alt="QR code to scan with your authenticator app"
                  width={192}
                  height={192}
                  className="size-48 rounded-md border bg-white"
                />
                <div className="grid w-full gap-1.5">
                  <Label htmlFor="two-factor-key">Or enter this key by hand</Label>
                  <output
                    id="two-factor-key"
                    className="break-all rounded-md border bg-muted p-2 font-mono text-sm"
                  >
                    {manualKeyOf(setup.otpauthUrl)}
                  </output>
                </div>
              </div>
            ) : (
              <Skeleton className="mx-auto size-48" role="status" aria-label="Loading the QR code" />
            )}
            <TwoFactorCodeField
              id="two-factor-setup-code"
              label="Code from your app"
              inputMode="numeric"
              value={code}
              onChange={(value) => {
                setCode(value);
                setError(undefined);
              }}
              error={error}
            />
            <FormDialogFooter
              onCancel={() => onOpenChange(false)}
              pending={enable.isPending}
              submitLabel="Turn on"
              pendingLabel="Turning on..."
              submitDisabled={!setup}
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
