/**
 * A wide table's horizontal scroller: a named region that takes focus, so keyboard users can
 * scroll it too (axe's scrollable-region-focusable) on phones.
 */
import type { ReactNode } from 'react';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="overflow-x-auto" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
