/**
 * Webhook signatures are computed over the exact bytes sent, so webhook routes read the body as a
 * Buffer. Registered inside the webhook plugins only: every other route keeps JSON parsing.
 */
import type { FastifyInstance } from 'fastify';

export function keepRawBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

export function rawBodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
