/**
 * The security headers every answer carries, computed once: helmet's headers for this deployment
 * (its CSP, HSTS only when PUBLIC_URL is https), as a plain map. A map, not helmet's middleware on
 * each request, because some answers never reach Fastify's hooks: a URL Fastify cannot decode, an
 * over-long path parameter, or a header section Node's parser refuses (431) is answered from
 * frameworkErrors or the raw socket, and those must carry the same headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config';

export type HeaderMap = Readonly<Record<string, string>>;

export function securityHeaders(config: Config): HeaderMap {
  const https = config.publicUrl.startsWith('https://');
  const middleware = helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(config, https) },
    // Over plain http the header means nothing to browsers and would pin a later https setup.
    strictTransportSecurity: https,
  });
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  // Helmet only sets headers and calls next synchronously; it reads nothing of the request.
  middleware({} as IncomingMessage, collector as unknown as ServerResponse, () => {});
  return Object.freeze(headers);
}

/** A complete HTTP/1.1 answer for the raw socket: `{message}` JSON with the security headers. */
export function rawJsonAnswer(
  status: number,
  statusText: string,
  message: string,
  headers: HeaderMap,
): string {
  const body = JSON.stringify({ message });
  const lines = [
    `HTTP/1.1 ${status} ${statusText}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function contentSecurityPolicy(config: Config, https: boolean): Record<string, string[] | null> {
  const stripeApi = config.stripe.apiUrl ? new URL(config.stripe.apiUrl).origin : 'https://api.stripe.com';
  const stripeJs = config.stripe.jsUrl ? [new URL(config.stripe.jsUrl).origin] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", 'https://js.stripe.com', ...stripeJs],
    frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
    connectSrc: ["'self'", stripeApi, 'https://api.stripe.com'],
    imgSrc: ["'self'", 'data:', 'https:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Only an https deployment may ask browsers to upgrade; on http://localhost it would break every request.
    upgradeInsecureRequests: https ? [] : null,
  };
}
