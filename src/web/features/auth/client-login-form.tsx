/** The client sign-in form (SPEC §2, §4, §5, §8 "Client login"), then the code when two-factor sign-in is on. */
import { useState } from 'react';
import { LoginForm } from './login-form';
import { useClientLogin, useClientLoginCode } from './mutations';
import { TwoFactorLoginStep } from './two-factor-login-step';

export function ClientLoginForm() {
  const [codeStep, setCodeStep] = useState(false);
  const login = useClientLogin(() => setCodeStep(true));
  const verify = useClientLoginCode();
  if (codeStep) return <TwoFactorLoginStep verify={verify} onBack={() => setCodeStep(false)} />;
  return (
    <LoginForm
      identity={{
        id: 'client-email',
        name: 'email',
        label: 'Email Address',
        type: 'email',
        placeholder: 'Enter your email',
        autoComplete: 'email',
      }}
      passwordId="client-password"
      missing={{ title: 'Required Fields', description: 'Please enter both email and password' }}
      pending={login.isPending}
      onLogin={(email, password) => login.mutate({ email, password })}
      footer={
        <p className="text-center text-muted-foreground text-sm">
          Need help accessing your account? Contact your administrator for assistance.
        </p>
      }
    />
  );
}
