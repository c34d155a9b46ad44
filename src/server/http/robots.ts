/**
 * GET /robots.txt: a real answer instead of the app's HTML (which crawlers read as a
 * broken robots file; Lighthouse's SEO audit said so). The public pages may be indexed; the API
 * and the signed-in pages are nobody's search result.
 */
import type { FastifyInstance } from 'fastify';

export const ROBOTS_TXT = [
  'User-agent: *',
  'Allow: /',
  'Disallow: /api/',
  'Disallow: /dashboard',
  'Disallow: /settings',
  'Disallow: /checkout',
  'Disallow: /admin',
  'Disallow: /accept-invite',
  '',
].join('\n');

export default async function robotsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(ROBOTS_TXT),
  );
}
