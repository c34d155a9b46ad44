import { Home, SearchX } from 'lucide-react';
import { Link } from 'wouter';
import { BrandMark } from '../components/brand-mark';
import { Button } from '../components/ui/button';
import { usePageTitle } from '../lib/use-page-title';

export default function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <main className="flex min-h-screen items-center justify-center bg-background px-4">
      <div className="flex max-w-md flex-col items-center text-center">
        <BrandMark className="mb-8" />
        <div className="mb-6 flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <SearchX className="size-7" aria-hidden="true" />
        </div>
        <p className="font-bold text-6xl text-primary-text tracking-tight">404</p>
        <h1 className="mt-3 font-semibold text-2xl">Page Not Found</h1>
        <p className="mt-2 text-muted-foreground">
          The page you are looking for does not exist or has been moved.
        </p>
        <Button asChild className="mt-8" size="lg">
          <Link href="/">
            <Home aria-hidden="true" />
            Go to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
