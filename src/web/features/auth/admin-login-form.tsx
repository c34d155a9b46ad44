/** The admin sign-in form (SPEC §2 "Admin login", §5, §8 "Admin"), then the code when two-factor sign-in is on. */
import { useState } from 'react';
import { LoginForm } from './login-form';
import { useAdminLogin, useAdminLoginCode } from './mutations';
import { TwoFactorLoginStep } from './two-factor-login-step';

export function AdminLoginForm() {
  const [codeStep, setCodeStep] = useState(false);
  const login = useAdminLogin(() => setCodeStep(true));
  const verify = useAdminLoginCode();
  if (codeStep) return <TwoFactorLoginStep verify={verify} onBack={() => setCodeStep(false)} />;
  return (
    <LoginForm
      identity={{
        id: 'admin-username',
        name: 'username',
        label: 'Username',
        placeholder: 'Enter your username',
        autoComplete: 'username',
        autoCapitalize: 'none',
        spellCheck: false,
      }}
      passwordId="admin-password"
      missing={{ title: 'Missing Information', description: 'Please enter both username and password.' }}
      pending={login.isPending}
      onLogin={(username, password) => login.mutate({ username, password })}
    />
  );
}
