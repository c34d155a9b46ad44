/**
 * The server's request logging: Fastify's pino logger with what must never reach a log file taken
 * out. A webhook URL's token is the only credential a provider's delivery carries, so the path
 * segment is replaced before the URL is logged; cookies and authorization headers are redacted.
 * Nothing personal either: what people search for (the log's `search`, the browser's
 * `q`, a phone or e-mail) is replaced, and any other run of digits long enough to be a phone or
 * card number keeps only its last four. Bodies are never logged.
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

const PERSONAL_PARAM = /([?&](?:search|q|phone|email)=)[^&#]*/gi;
/** Seven digits or more, written with spaces, dots, dashes or encoded ones between them. */
const LONG_NUMBER = /\d(?:(?:%20|%2D|[-.+ ])?\d){6,}/gi;

/** A query string without what people typed to find a caller, nor long numbers. */
function redactQuery(query: string): string {
  return query.replace(PERSONAL_PARAM, '$1[redacted]').replace(LONG_NUMBER, (run) => {
    const digits = run.replace(/%2D|%20|\D/gi, '');
    return `•••${digits.slice(-4)}`;
  });
}

export function redactUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const rest = queryAt < 0 ? '' : redactQuery(url.slice(queryAt));
  const decoded = decodedPath(path);
  WEBHOOK_TOKEN.lastIndex = 0;
  if (!WEBHOOK_TOKEN.test(decoded)) return path + rest;
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
