/**
 * `npm run dev`: the same branded first HTML as the server sends (src/server/brand/first-html.ts),
 * so the dev app shows the agency's name, colours and icons before React has asked for them.
 * Vite serves index.html itself in dev; this asks the dev API for GET /api/brand on each page
 * load and injects it. While the API is still starting (or down), the page goes out unbranded and
 * the app's own hook fetches the brand.
 */
import type { Plugin } from 'vite';
import { PublicBrand } from '../src/contract/brand';
import { renderFirstHtml } from '../src/server/brand/first-html';

export function brandFirstHtml(apiOrigin: string): Plugin {
  return {
    name: 'brand-first-html',
    apply: 'serve',
    async transformIndexHtml(html) {
      try {
        const res = await fetch(`${apiOrigin}/api/brand`, { signal: AbortSignal.timeout(2_000) });
        const brand = res.ok ? PublicBrand.safeParse(await res.json()) : null;
        return brand?.success ? renderFirstHtml(html, brand.data) : html;
      } catch {
        return html;
      }
    },
  };
}
