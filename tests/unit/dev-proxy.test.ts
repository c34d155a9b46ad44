/**
 * `npm run dev` serves the app from Vite on :5000; what belongs to the API server must be proxied
 * to it, or Vite answers the app's HTML. The probes and metrics are the API's, exactly those paths.
 */
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

/** Vite's rule: a key starting with ^ is a regular expression, any other a path prefix. */
function proxied(path: string): boolean {
  return Object.keys(config.server?.proxy ?? {}).some((key) =>
    key.startsWith('^') ? new RegExp(key).test(path) : path.startsWith(key),
  );
}

describe('the dev server’s proxy', () => {
  it('sends /healthz, /readyz and /metrics to the API server', () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/api/brand', '/brand-assets/light-x.png']) {
      expect(proxied(path), path).toBe(true);
    }
  });

  it('leaves the app’s own pages to Vite', () => {
    for (const path of ['/', '/dashboard', '/metrics-overview', '/client-login']) {
      expect(proxied(path), path).toBe(false);
    }
  });
});
