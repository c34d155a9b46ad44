/** The one-time code input of the set-up, the turning off and the login's second step. */
import type { ComponentProps } from 'react';
import { FieldShell } from '../form-fields';
import { Input } from '../ui/input';

interface TwoFactorCodeFieldProps extends Omit<ComponentProps<typeof Input>, 'id' | 'onChange'> {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
}

export function TwoFactorCodeField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  ...input
}: TwoFactorCodeFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        name="code"
        autoComplete="one-time-code"
        spellCheck={false}
        autoCapitalize="none"
        maxLength={64}
        className="font-mono tracking-wider"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...input}
      />
    </FieldShell>
  );
}
