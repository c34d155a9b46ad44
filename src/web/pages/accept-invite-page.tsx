import { useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useSearch } from 'wouter';
import type { InvitationLookup } from '../../contract/teams';
import { AcceptInviteForm } from '../features/auth/accept-invite-form';
import { AuthCard } from '../features/auth/auth-card';
import { apiJson } from '../lib/api';
import { usePageTitle } from '../lib/use-page-title';

/**
 * Whose invitation this is, so the page names the company before anyone types. A dead link
 * answers an error here too; the form says so when it is sent, so this stays quiet about it.
 */
function useInvitingCompany(token: string): string | null {
  const lookup = useQuery({
    queryKey: ['/api/client/invitations/lookup', token],
    queryFn: () => apiJson<InvitationLookup>('POST', '/api/client/invitations/lookup', { token }),
    enabled: token.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return lookup.data?.companyName ?? null;
}

/** /accept-invite?token=…: public; an invitation, or an agency's password reset (&reset=1). */
export default function AcceptInvitePage() {
  const params = new URLSearchParams(useSearch());
  const reset = params.get('reset') === '1';
  const token = params.get('token') ?? '';
  const company = useInvitingCompany(token);
  usePageTitle(reset ? 'Set a new password' : 'Accept invitation');
  return (
    <AuthCard
      icon={UserPlus}
      title={reset ? 'Set a new password' : company ? `Join ${company}` : 'Join your team'}
      subtitle={
        reset
          ? company
            ? `Choose a new password to sign in to ${company}.`
            : 'Choose a new password to sign in with.'
          : company
            ? `${company} invited you. Choose your name and a password to finish joining.`
            : 'Choose your name and a password to finish joining.'
      }
    >
      <AcceptInviteForm token={token} reset={reset} />
    </AuthCard>
  );
}
