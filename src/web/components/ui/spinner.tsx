import { Loader2 } from 'lucide-react';
import type * as React from 'react';
import { cn } from '../../lib/utils';

/** A spinning icon; decorative, so pair it with visible text (e.g. "Loading..."). */
function Spinner({ className, ...props }: React.ComponentProps<'svg'>) {
  return (
    <Loader2
      data-slot="spinner"
      aria-hidden="true"
      className={cn('size-6 animate-spin text-primary-text', className)}
      {...props}
    />
  );
}

export { Spinner };
