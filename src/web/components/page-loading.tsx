import { cn } from '../lib/utils';
import { Spinner } from './ui/spinner';

interface PageLoadingProps {
  label?: string;
  /** Fade in after a moment, so a fast load (a lazy page chunk) shows no flash. */
  delayed?: boolean;
}

/** Full-page wait state: a spinner with "Loading..." (SPEC §2 "Client dashboard"). */
export function PageLoading({ label = 'Loading...', delayed = false }: PageLoadingProps) {
  return (
    <div
      className={cn('flex min-h-screen items-center justify-center', delayed && 'animate-delayed-fade-in')}
      role="status"
      aria-live="polite"
    >
      <div className="flex flex-col items-center gap-3 text-muted-foreground">
        <Spinner className="size-8" />
        <p className="text-sm">{label}</p>
      </div>
    </div>
  );
}
