/**
 * The sign-in form both login pages share (SPEC §5, §8): who you are (username or e-mail) and a
 * password. An empty field is answered with the page's own toast and nothing is sent.
 */
import { type ComponentProps, type FormEvent, type ReactNode, useState } from 'react';
import { PasswordInput } from '../../components/password-input';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../lib/use-toast';

interface LoginFormProps {
  /** The first field: its id, name and label, plus the input's own attributes. */
  identity: { id: string; name: string; label: string } & Omit<ComponentProps<'input'>, 'value' | 'onChange'>;
  passwordId: string;
  /** The toast for an empty field; the words differ per page. */
  missing: { title: string; description: string };
  pending: boolean;
  onLogin: (identity: string, password: string) => void;
  /** Below the submit button. */
  footer?: ReactNode;
}

export function LoginForm({ identity, passwordId, missing, pending, onLogin, footer }: LoginFormProps) {
  const { id, name, label, ...identityInput } = identity;
  const [identityValue, setIdentityValue] = useState('');
  const [password, setPassword] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = identityValue.trim();
    if (!trimmed || !password) {
      toast({ ...missing, variant: 'destructive' });
      return;
    }
    onLogin(trimmed, password);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          name={name}
          {...identityInput}
          required
          value={identityValue}
          onChange={(e) => setIdentityValue(e.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={passwordId}>Password</Label>
        <PasswordInput
          id={passwordId}
          name="password"
          placeholder="Enter your password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
      {footer}
    </form>
  );
}
