/**
 * The server's request logging: Fastify's pino logger with what must never reach a log file taken
 * out. A webhook URL's token is the only credential a provider's delivery carries, so the path
 * segment is replaced before the URL is logged; cookies and authorization headers are redacted.
 */
import type { FastifyServerOptions } from 'fastify';

const WEBHOOK_TOKEN = /(\/api\/webhooks\/voice\/)[^/?#]+/gi;

/**
 * The router decodes percent-encoded letters (`/api/%77ebhooks/voice/…` reaches the webhook
 * route), so the path is matched as the router reads it: each %XX decoded on its own, which no
 * malformed escape can stop.
 */
function decodedPath(path: string): string {
  return path.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

export function redactUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const rest = queryAt < 0 ? '' : url.slice(queryAt);
  const decoded = decodedPath(path);
  WEBHOOK_TOKEN.lastIndex = 0;
  if (!WEBHOOK_TOKEN.test(decoded)) return url;
  return decoded.replace(WEBHOOK_TOKEN, '/api/webhooks/voice/[redacted]') + rest;
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
