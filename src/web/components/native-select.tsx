/** The browser's own <select>, styled like the inputs: short lists (hours, months, digests) that need no custom menu. */
import type { ComponentProps } from 'react';
import { cn } from '../lib/utils';

export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-9 max-sm:min-h-11 min-w-0 max-w-full rounded-md border border-input bg-card px-2 text-sm shadow-xs focus-visible:border-ring focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
      {...props}
    />
  );
}
