import { useEffect } from 'react';
import { useBrand, useBrandReady } from './brand';

/** The tab's title: `<page> · <agency name>`, or the agency's name alone (the landing page). */
export function pageTitle(page: string, brandName: string): string {
  return page ? `${page} · ${brandName}` : brandName;
}

/**
 * Sets the browser tab's title for the current page. While the brand is still being fetched the
 * title is left as the first HTML had it, so the product's default name never flashes.
 */
export function usePageTitle(title: string): void {
  const { name } = useBrand();
  const ready = useBrandReady();
  useEffect(() => {
    if (ready) document.title = pageTitle(title, name);
  }, [title, name, ready]);
}
