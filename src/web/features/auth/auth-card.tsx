import { Globe, type LucideIcon, Mail, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import { BrandMark } from '../../components/brand-mark';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useBrand } from '../../lib/brand';

interface AuthCardProps {
  icon: LucideIcon;
  title: string;
  subtitle: string;
  /** Above the card (a way back). */
  top?: ReactNode;
  /**
   * The agency's welcome to its clients (headline and text). Off on the admin's sign-in: the
   * agency's own staff are not its clients, and the page should not greet them as such.
   */
  clientWelcome?: boolean;
  children: ReactNode;
}

/**
 * The centred sign-in card the login pages share. The agency's logo (or name) and its own welcome
 * stand above the card, so a client recognises whose page this is before typing a password; its
 * support details follow the card. SPEC's texts inside the card stay as they are.
 */
export function AuthCard({
  icon: Icon,
  title,
  subtitle,
  top,
  clientWelcome = true,
  children,
}: AuthCardProps) {
  const brand = useBrand();
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-blue-50 via-background to-slate-100 px-4 py-10">
      <div className="w-full max-w-md">
        {top && <div className="mb-4">{top}</div>}
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <BrandMark size="lg" />
          {clientWelcome && brand.loginHeadline && (
            <p className="text-balance font-semibold text-lg" data-testid="brand-login-headline">
              {brand.loginHeadline}
            </p>
          )}
          {clientWelcome && brand.loginText && (
            <p className="whitespace-pre-line text-balance text-muted-foreground text-sm">
              {brand.loginText}
            </p>
          )}
        </div>
        <Card className="gap-6 shadow-md">
          <CardHeader className="justify-items-center text-center">
            <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary-text">
              <Icon className="size-6" aria-hidden="true" />
            </div>
            <CardTitle className="text-2xl" role="heading" aria-level={1}>
              {title}
            </CardTitle>
            <CardDescription>{subtitle}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
        <BrandSupport />
      </div>
    </main>
  );
}

/** "https://help.example.com/x" reads as "help.example.com". */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The agency's support e-mail, phone and site, each a link, when it has set them. */
export function BrandSupport() {
  const { supportEmail, supportPhone, supportUrl } = useBrand();
  if (!supportEmail && !supportPhone && !supportUrl) return null;
  const link = 'inline-flex items-center gap-1.5 text-primary-text underline underline-offset-4';
  return (
    <nav aria-label="Support" className="mt-4" data-testid="brand-support">
      <ul className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-sm">
        {supportEmail && (
          <li>
            <a className={link} href={`mailto:${supportEmail}`}>
              <Mail className="size-4" aria-hidden="true" />
              {supportEmail}
            </a>
          </li>
        )}
        {supportPhone && (
          <li>
            <a className={link} href={`tel:${supportPhone.replace(/[^\d+]/g, '')}`}>
              <Phone className="size-4" aria-hidden="true" />
              {supportPhone}
            </a>
          </li>
        )}
        {supportUrl && (
          <li>
            <a className={link} href={supportUrl} rel="noopener noreferrer">
              <Globe className="size-4" aria-hidden="true" />
              {hostOf(supportUrl)}
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
