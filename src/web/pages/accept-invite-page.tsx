import { UserPlus } from 'lucide-react';
import { useSearch } from 'wouter';
import { AuthCard } from '../features/auth/auth-card';
import { AcceptInviteForm } from '../features/auth/accept-invite-form';
import { usePageTitle } from '../lib/use-page-title';

/** /accept-invite?token=… (issue 36): public; an invitation, or an agency's password reset (&reset=1). */
export default function AcceptInvitePage() {
  const params = new URLSearchParams(useSearch());
  const reset = params.get('reset') === '1';
  usePageTitle(reset ? 'Set a new password' : 'Accept invitation');
  return (
    <AuthCard
      icon={UserPlus}
      title={reset ? 'Set a new password' : 'Join your team'}
      subtitle={
        reset
          ? 'Choose a new password to sign in with.'
          : 'Choose your name and a password to finish joining.'
      }
    >
      <AcceptInviteForm token={params.get('token') ?? ''} reset={reset} />
    </AuthCard>
  );
}
