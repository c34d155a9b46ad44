/**
 * Admin-only pages (SPEC §6): wait for the admin session check, then render the page with the
 * admin, or send the visitor to /admin-login with the toast "Admin Access Required".
 */
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'wouter';
import type { AdminSession } from '../../../contract/auth';
import { PageLoading } from '../../components/page-loading';
import { isSettledWithoutSession, useAdminSession } from '../../lib/session';
import { toast } from '../../lib/use-toast';

export interface RequireAdminProps {
  children: ReactNode | ((admin: AdminSession) => ReactNode);
}

export function RequireAdmin({ children }: RequireAdminProps) {
  const session = useAdminSession();
  const [, navigate] = useLocation();
  const admin = session.data ?? null;
  const settledWithoutAdmin = isSettledWithoutSession(session);

  useEffect(() => {
    if (!settledWithoutAdmin) return;
    toast({
      title: 'Admin Access Required',
      description: 'Please log in to access the admin dashboard.',
      variant: 'destructive',
    });
    navigate('/admin-login', { replace: true });
  }, [settledWithoutAdmin, navigate]);

  if (admin) return <>{typeof children === 'function' ? children(admin) : children}</>;
  return <PageLoading />;
}
