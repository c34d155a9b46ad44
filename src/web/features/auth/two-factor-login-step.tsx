/**
 * The login's second step, after a right password of someone with two-factor sign-in
 * on: a code from the authenticator app or a recovery code. A sign-in left waiting too long (five
 * minutes) goes back to the password.
 */
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { TWO_FACTOR_MESSAGES } from '../../../contract/two-factor';
import { PendingButton } from '../../components/pending-button';
import { TwoFactorCodeField } from '../../components/two-factor/two-factor-code-field';
import { Button } from '../../components/ui/button';
import { serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';

interface TwoFactorLoginStepProps {
  verify: UseMutationResult<unknown, Error, string>;
  /** Back to the password (the pending sign-in expired, or another account). */
  onBack: () => void;
}

export function TwoFactorLoginStep({ verify, onBack }: TwoFactorLoginStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the code');
      return;
    }
    verify.mutate(code.trim(), {
      onError: (e) => {
        const message = serverMessageOf(e, TWO_FACTOR_MESSAGES.invalidCode);
        if (message === TWO_FACTOR_MESSAGES.challengeExpired) {
          failureToast('Login Failed', e);
          onBack();
          return;
        }
        setError(message);
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-5" aria-label="Two-factor sign-in">
      <p className="text-sm" id="two-factor-login-prompt">
        {TWO_FACTOR_MESSAGES.codePrompt}
      </p>
      <TwoFactorCodeField
        ref={input}
        id="two-factor-login-code"
        label="Authentication code"
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        error={error}
      />
      <PendingButton
        type="submit"
        size="lg"
        className="w-full"
        pending={verify.isPending}
        pendingLabel="Verifying..."
      >
        Verify
      </PendingButton>
      <Button type="button" variant="ghost" onClick={onBack}>
        Back to sign in
      </Button>
    </form>
  );
}
