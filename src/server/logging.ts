/**
 * The server's request logging: Fastify's pino logger with what must never reach a log file taken
 * out. A webhook URL's token is the only credential a provider's delivery carries, so the path
 * segment is replaced before the URL is logged; cookies and authorization headers are redacted.
 */
import type { FastifyServerOptions } from 'fastify';

const WEBHOOK_TOKEN = /(\/api\/webhooks\/voice\/)[^/?#]+/;

export function redactUrl(url: string): string {
  return url.replace(WEBHOOK_TOKEN, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
