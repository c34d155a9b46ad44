import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';

interface AuthCardProps {
  icon: LucideIcon;
  title: string;
  subtitle: string;
  /** Above the card (a way back). */
  top?: ReactNode;
  children: ReactNode;
}

/** The centred sign-in card both login pages share. */
export function AuthCard({ icon: Icon, title, subtitle, top, children }: AuthCardProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-blue-50 via-background to-slate-100 px-4 py-10">
      <div className="w-full max-w-md">
        {top && <div className="mb-4">{top}</div>}
        <Card className="gap-6 shadow-md">
          <CardHeader className="justify-items-center text-center">
            <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Icon className="size-6" aria-hidden="true" />
            </div>
            <CardTitle className="text-2xl" role="heading" aria-level={1}>
              {title}
            </CardTitle>
            <CardDescription>{subtitle}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </div>
    </main>
  );
}
