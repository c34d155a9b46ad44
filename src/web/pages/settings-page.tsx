/** /settings (SPEC §2 "Client settings"): the settings feature behind the client guard. */
import { LogIn } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../components/ui/button';
import { RequireClient } from '../features/auth/require-client';
import { SettingsView } from '../features/settings/settings-view';
import { usePageTitle } from '../lib/use-page-title';

export default function SettingsPage() {
  usePageTitle('Settings');
  return (
    <RequireClient unauthenticated={<LoggedOut />}>
      {(client) => <SettingsView client={client} />}
    </RequireClient>
  );
}

function LoggedOut() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="font-semibold text-xl">Please log in to access settings</h1>
      <Button asChild>
        <Link href="/client-login">
          <LogIn aria-hidden="true" />
          Sign In
        </Link>
      </Button>
    </main>
  );
}
