import { KeyRound } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { MIN_PASSWORD_LENGTH } from '../../contract/auth';
import { PageLoading } from '../components/page-loading';
import { AuthCard } from '../features/auth/auth-card';
import { ChoosePasswordForm } from '../features/auth/choose-password-form';
import { isSettledWithoutSession, useClientSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';

/** /choose-password: a client whose password the agency chose picks their own before anything else. */
export default function ChoosePasswordPage() {
  usePageTitle('Choose a new password');
  const session = useClientSession();
  const [, navigate] = useLocation();
  const signedOut = isSettledWithoutSession(session);
  const done = session.data != null && !session.data.mustChangePassword;
  useEffect(() => {
    if (signedOut) navigate('/client-login', { replace: true });
    else if (done) navigate('/dashboard', { replace: true });
  }, [signedOut, done, navigate]);
  if (!session.data?.mustChangePassword) return <PageLoading />;
  return (
    <AuthCard
      icon={KeyRound}
      title="Choose a new password"
      subtitle={`Your agency set your first password. Choose your own (at least ${MIN_PASSWORD_LENGTH} characters) to continue.`}
    >
      <ChoosePasswordForm />
    </AuthCard>
  );
}
