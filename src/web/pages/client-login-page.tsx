import { ArrowLeft, BarChart3 } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../components/ui/button';
import { AuthCard } from '../features/auth/auth-card';
import { ClientLoginForm } from '../features/auth/client-login-form';
import { usePageTitle } from '../lib/use-page-title';

export default function ClientLoginPage() {
  usePageTitle('Client Login');
  return (
    <AuthCard
      icon={BarChart3}
      title="Client Dashboard Login"
      subtitle="Access your call analytics and dashboard"
      top={
        <Button asChild variant="ghost" size="sm" className="text-muted-foreground">
          <Link href="/">
            <ArrowLeft aria-hidden="true" />
            Home
          </Link>
        </Button>
      }
    >
      <ClientLoginForm />
    </AuthCard>
  );
}
