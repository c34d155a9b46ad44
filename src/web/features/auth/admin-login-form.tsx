/** The admin sign-in form (SPEC §2 "Admin login", §5, §8 "Admin"). */
import { LoginForm } from './login-form';
import { useAdminLogin } from './mutations';

export function AdminLoginForm() {
  const login = useAdminLogin();
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
