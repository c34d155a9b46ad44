/**
 * The agency's mark: its logo (the dark-background one in the dark theme, when there is
 * one), or its name as text when it has none. Logos of any aspect ratio show at a fixed height
 * with their own width, capped so a wide logo never pushes a header past a phone's width. The box
 * is reserved while the brand loads, so the header does not move when it arrives.
 */
import { useBrand, useBrandReady } from '../lib/brand';
import { cn } from '../lib/utils';

const SIZES = {
  /** Headers: about 32 px high. */
  md: { box: 'h-8', img: 'h-8 max-w-[min(12rem,60vw)]', text: 'text-lg' },
  /** The landing and login pages, above their heading. */
  lg: { box: 'h-12', img: 'h-12 max-w-[min(16rem,75vw)]', text: 'text-2xl' },
} as const;

export interface BrandMarkProps {
  size?: keyof typeof SIZES;
  className?: string;
}

export function BrandMark({ size = 'md', className }: BrandMarkProps) {
  const brand = useBrand();
  const ready = useBrandReady();
  const s = SIZES[size];
  if (!ready) {
    return (
      <span className={cn('block w-32', s.box, className)} aria-hidden="true" data-testid="brand-mark" />
    );
  }
  if (brand.logoUrl) {
    const img = cn('w-auto object-contain', s.img);
    return (
      <span className={cn('flex min-w-0 items-center', s.box, className)} data-testid="brand-mark">
        <img
          src={brand.logoUrl}
          alt={brand.name}
          className={cn(img, brand.logoDarkUrl && 'dark:hidden')}
          decoding="async"
        />
        {brand.logoDarkUrl && (
          // Lazy: while hidden (the light theme) a lazy image is never downloaded.
          <img
            src={brand.logoDarkUrl}
            alt={brand.name}
            className={cn(img, 'hidden dark:block')}
            loading="lazy"
            decoding="async"
          />
        )}
      </span>
    );
  }
  return (
    <span
      className={cn(
        'flex min-w-0 items-center font-semibold tracking-tight text-foreground',
        s.box,
        s.text,
        className,
      )}
      data-testid="brand-mark"
    >
      <span className="truncate">{brand.name}</span>
    </span>
  );
}
