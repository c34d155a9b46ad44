/**
 * The probes and the metrics, outside /api/ as load balancers and Prometheus expect:
 *   GET /healthz — the process answers (no database): restart it when this fails;
 *   GET /readyz  — 200 when this instance should get traffic, else 503 naming what failed
 *                  (readiness.ts); what each part found (streams open, the database's answer
 *                  time, pending migrations) only with the metrics token, as it is public;
 *   GET /metrics — Prometheus text, with `Authorization: Bearer <METRICS_TOKEN>`; without a
 *                  token configured it is not served on this port (METRICS_PORT's listener is
 *                  the other way, metrics-server.ts).
 * None of them is logged per request (http/request-log.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Liveness, Readiness } from '../../contract/operations';
import { notFound, unauthorized } from '../http/errors';
import { apiDoc, file } from '../http/route-docs';
import type { ZodTypeProvider } from '../http/route-schemas';
import { registerOperationalGauges } from './gauges';
import { createReadiness } from './readiness';

export const PROBE_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export default async function operationsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const readiness = createReadiness(deps, app.log);
  const token = deps.config.operations.metricsToken;
  registerOperationalGauges(deps, app.log);

  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process answers (the database is not asked)',
        tags: ['operations'],
        description: 'For a process supervisor or an orchestrator’s liveness probe; never logged.',
        response: { 200: Liveness },
      },
    },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: whether this instance should get traffic (503 naming what failed)',
        tags: ['operations'],
        description:
          'Checks, in order: start-up done and not stopping (503 from SIGTERM on), the database answers, ' +
          'every migration applied, no due outbox message older than READY_OUTBOX_MAX_AGE_MS, the live ' +
          'hub reading. `failing` lists those that failed; what each part found (`checks`) only with ' +
          '`Authorization: Bearer <METRICS_TOKEN>`. Never logged.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (request, reply) => {
      const answer = await readiness.check();
      const detailed = token !== null && isBearer(request.headers.authorization, token);
      return reply
        .code(answer.ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(detailed ? answer : statusOnly(answer));
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics (text exposition format), with the METRICS_TOKEN bearer token',
        tags: ['operations'],
        description:
          'HTTP request durations by route and status, provider deliveries, sync runs, the outbox, live ' +
          'streams, the database pool, the last backup and the process’s own figures (docs/operations.md). ' +
          '404 when METRICS_TOKEN is not set (METRICS_PORT serves them on loopback instead).',
        security: [{ metricsBearer: [] }],
        ...apiDoc({
          errors: [401, 404],
          responses: {
            200: file('The metrics, Prometheus text format 0.0.4.', 'text/plain'),
          },
        }),
      },
    },
    async (request, reply) => {
      if (!token)
        throw notFound(
          'Metrics are not served on this port: set METRICS_TOKEN, or read them on METRICS_PORT',
        );
      if (!isBearer(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized('Send the metrics token: Authorization: Bearer <METRICS_TOKEN>');
      }
      const text = await deps.metrics.render();
      return reply.header('cache-control', 'no-store').type(deps.metrics.contentType).send(text);
    },
  );
}

/** What anyone may know: ready or not, and which parts failed, not what they found. */
export function statusOnly(answer: Readiness): Readiness {
  const { ready, failing } = answer;
  return { ready, failing, message: ready ? 'ready' : `not ready: ${failing.join(', ')}` };
}

/** Constant-time over hashes, so neither the token's length nor its bytes leak through timing. */
export function isBearer(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
