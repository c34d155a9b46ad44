/**
 * Webhook signatures are computed over the exact bytes sent, so webhook routes read the body as a
 * Buffer. Registered inside the webhook plugins only: every other route keeps JSON parsing. The
 * nesting bound of every JSON body (json-body.ts) holds here too.
 */
import type { FastifyInstance } from 'fastify';
import { assertJsonDepth } from './json-body';

export function keepRawBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      assertJsonDepth(body.toString('utf8'));
      done(null, body);
    } catch (error) {
      // A catch binding is unknown; assertJsonDepth throws only HttpErrors
      done(error as Error);
    }
  });
}

export function rawBodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
