/**
 * One log line per request and its figure in the metrics: method, URL (redacted as
 * logging.ts does), route pattern, status, milliseconds and the request id, at info, once the
 * answer is sent. Fastify's own two lines per request are off (`disableRequestLogging`); the
 * probes (/healthz, /readyz, /metrics, /api/health) are counted but never logged: a load balancer
 * asking every few seconds would fill the log with nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactUrl } from './logging';
import type { Metrics } from './metrics';

const PROBES = new Set(['/healthz', '/readyz', '/metrics', '/api/health']);

/** A proxy's request id (nginx's $request_id, a load balancer's trace id) when it looks like one. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

let counter = 0;
export function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID.test(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req-${counter.toString(36)}`;
}

/** The label a request is counted under: its route's pattern, never the raw URL. */
export function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (!route) return 'unmatched';
  // Hashed bundle files each have a route of their own (@fastify/static): one label for all.
  if (route.startsWith('/assets/')) return '/assets/*';
  return route;
}

export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeLabel(request);
    const seconds = reply.elapsedTime / 1000;
    metrics.httpRequest(request.method, route, reply.statusCode, seconds);
    if (!PROBES.has(route)) {
      request.log.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          route,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    }
    done();
  });
}
