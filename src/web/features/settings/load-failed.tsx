/** What a settings card says when its data could not be read, with a way to read it again. */
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';

export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <p role="alert" className="text-muted-foreground text-sm">
      {children}{' '}
      <Button variant="link" className="h-auto p-0" onClick={onRetry}>
        Try again
      </Button>
    </p>
  );
}
