import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '../components/ui/button';
import { AdminLoginForm } from '../features/auth/admin-login-form';
import { AuthCard } from '../features/auth/auth-card';
import { usePageTitle } from '../lib/use-page-title';

export default function AdminLoginPage() {
  usePageTitle('Admin Login');
  const [, navigate] = useLocation();
  return (
    <AuthCard
      icon={ShieldCheck}
      title="Admin Login"
      subtitle="Sign in to manage client accounts and system settings"
      clientWelcome={false}
      top={
        <Button variant="ghost" size="sm" className="text-muted-foreground" onClick={() => navigate('/')}>
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </Button>
      }
    >
      <AdminLoginForm />
    </AuthCard>
  );
}
