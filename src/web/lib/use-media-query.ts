/** Whether a CSS media query matches now, re-rendering when it changes (window resize, rotation). */
import { useSyncExternalStore } from 'react';

/**
 * From this width the calls pages use their desktop layout (the log as a table, the filters as a
 * bar, the header's buttons in a row); below it, a phone's: the numbers first, the rest in menus.
 */
export const WIDE_SCREEN = '(min-width: 768px)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}
