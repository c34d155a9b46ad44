/**
 * The public entry page. Until an agency saves its brand: the product's page, three ways in, in
 * SPEC §1's words. Once a brand is saved, `/` is the agency's page for its clients: its headline,
 * text and support links, one way in (Sign In); the admin entry and the product's words are not
 * shown (the admin's sign-in stays at /admin-login).
 */
import { Activity, ArrowRight, type LucideIcon, PlayCircle, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'wouter';
import { BrandMark } from '../components/brand-mark';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { BrandSupport } from '../features/auth/auth-card';
import { useBrand } from '../lib/brand';
import { usePageTitle } from '../lib/use-page-title';

interface EntryCard {
  icon: LucideIcon;
  title: string;
  description: string;
  action: string;
  href: string;
}

const ENTRY_CARDS: EntryCard[] = [
  {
    icon: Users,
    title: 'Client Access',
    description: 'View your call analytics, recordings and performance metrics.',
    action: 'Sign In',
    href: '/client-login',
  },
  {
    icon: ShieldCheck,
    title: 'Admin Portal',
    description: 'Manage client accounts, configurations and system oversight.',
    action: 'Admin Login',
    href: '/admin-login',
  },
  {
    icon: PlayCircle,
    title: 'Live Demo',
    description: 'Experience the platform with real call data from the voice provider.',
    action: 'View Demo',
    href: '/demo',
  },
];

export default function LandingPage() {
  usePageTitle('');
  const brand = useBrand();
  if (brand.saved) return <AgencyLandingPage />;
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-blue-50 via-background to-slate-100">
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col items-center justify-center px-4 py-16 sm:px-6">
        {/* The agency's logo stands for the product; without one, the product's mark and the name. */}
        {!brand.logoUrl && (
          <div className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-primary text-primary-foreground shadow-lg shadow-primary/20">
            <Activity className="size-7" aria-hidden="true" />
          </div>
        )}
        <BrandMark size="lg" className="mb-6" />
        <h1 className="max-w-3xl text-balance text-center font-bold text-[1.75rem] leading-tight tracking-tight sm:text-4xl md:text-5xl">
          {'Advanced Call Analytics & Management Platform'}
        </h1>
        <p className="mt-4 max-w-2xl text-balance text-center text-muted-foreground sm:text-lg">
          Every call your AI voice agents handle: performance, recordings, transcripts and cost in one place.
        </p>

        <div className="mt-12 grid w-full gap-6 md:grid-cols-3">
          {ENTRY_CARDS.map(({ icon: Icon, title, description, action, href }) => (
            <Card key={href} className="transition-shadow hover:shadow-md">
              <CardHeader>
                <div className="mb-2 flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary-text">
                  <Icon className="size-6" aria-hidden="true" />
                </div>
                <CardTitle className="text-xl" role="heading" aria-level={2}>
                  {title}
                </CardTitle>
              </CardHeader>
              <CardContent className="flex-1">
                <CardDescription className="text-base">{description}</CardDescription>
              </CardContent>
              <CardFooter>
                <Button asChild className="w-full" size="lg">
                  <Link href={href}>
                    {action}
                    <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
              </CardFooter>
            </Card>
          ))}
        </div>
      </main>
      <footer className="border-t bg-card/60 px-4 py-6 text-center text-muted-foreground text-sm">
        <p>Secure access to your AI voice agent analytics and management tools</p>
        {brand.footerText && (
          <p className="mt-1 text-xs" data-testid="brand-footer">
            {brand.footerText}
          </p>
        )}
      </footer>
    </div>
  );
}

/** `/` once the agency has saved its brand: its own words, and the way in for its clients. */
function AgencyLandingPage() {
  const brand = useBrand();
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-blue-50 via-background to-slate-100">
      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center px-4 py-16 sm:px-6">
        <BrandMark size="lg" className="mb-6" />
        <h1
          className="text-balance text-center font-bold text-[1.75rem] leading-tight tracking-tight sm:text-4xl md:text-5xl"
          data-testid="agency-landing-headline"
        >
          {brand.landingHeadline}
        </h1>
        {brand.landingText && (
          <p className="mt-4 max-w-2xl whitespace-pre-line text-balance text-center text-muted-foreground sm:text-lg">
            {brand.landingText}
          </p>
        )}
        <Button asChild className="mt-10 w-full sm:w-auto sm:min-w-56" size="lg">
          <Link href="/client-login">
            Sign In
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
        <BrandSupport />
      </main>
      {brand.footerText && (
        <footer className="border-t bg-card/60 px-4 py-6 text-center text-muted-foreground text-sm">
          <p data-testid="brand-footer">{brand.footerText}</p>
        </footer>
      )}
    </div>
  );
}
