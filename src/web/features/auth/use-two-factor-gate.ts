/**
 * Someone who must use two-factor sign-in and has not set it up reaches nothing but the set-up
 * (the server answers 403 elsewhere): the client pages take them to Settings › Security.
 */
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useTwoFactorStatus } from '../../components/two-factor/two-factor-queries';

export const TWO_FACTOR_SETUP_PATH = '/settings?tab=security';

export function useClientTwoFactorGate(signedIn: boolean): void {
  const status = useTwoFactorStatus('/api/client/2fa', signedIn);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const mustSetUp = status.data?.required === true && !status.data.enabled;
  const onSetup = location === '/settings' && new URLSearchParams(search).get('tab') === 'security';
  useEffect(() => {
    if (mustSetUp && !onSetup) navigate(TWO_FACTOR_SETUP_PATH, { replace: true });
  }, [mustSetUp, onSetup, navigate]);
}
