/**
 * buildApp(deps): the whole HTTP application as one Fastify instance. main.ts starts it; tests
 * build exactly the same app with their own database and simulators.
 * Order: outside plugins → cross-cutting hooks (origin check, errors) → the API description →
 * each feature's routes (its routes.ts) → static/SPA. This is the composition root: it sits beside
 * bootstrap.ts, above the features, so http/ (plumbing) never imports one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { ZodError } from 'zod';
import { SMS_NUMBER_MESSAGES } from '../contract/notification-choices';
import accountRoutes from './account/routes';
import agencyRoutes from './agency/routes';
import { registerApiDocs } from './api-docs';
import { registerGuards } from './auth/guards';
import authRoutes from './auth/routes';
import { paymentHttpError } from './billing/gateways';
import billingRoutes from './billing/routes';
import { loadBrand } from './brand/brand-store';
import { createFirstHtml } from './brand/first-html';
import brandRoutes from './brand/routes';
import callsRoutes from './calls/routes';
import type { AppDeps } from './context';
import dashboardRoutes from './dashboard/routes';
import demoRoutes from './demo/routes';
import { HttpError, zodFields } from './http/errors';
import { assertJsonDepth } from './http/json-body';
import { observeRequests, requestId } from './http/request-log';
import robotsRoutes from './http/robots';
import { apiDoc, ok } from './http/route-docs';
import { schemaValidationError, serializerCompiler, validatorCompiler } from './http/route-schemas';
import { type HeaderMap, rawJsonAnswer, securityHeaders } from './http/security-headers';
import liveRoutes from './live/routes';
import notificationsRoutes from './notifications/routes';
import operationsRoutes from './operations/routes';
import outcomesRoutes from './outcomes/routes';
import privacyRoutes from './privacy/routes';
import { TwilioError } from './providers/messaging/twilio';
import { isPaymentError } from './providers/payments/errors';
import { isVoiceProviderError, voiceHttpError } from './providers/voice/errors';
import { platformNameFor } from './providers/voice/registry';
import qualityRoutes from './quality/routes';
import reportsRoutes from './reports/routes';
import teamsRoutes from './teams/routes';

export const BODY_LIMIT_BYTES = 1_048_576;

/** Every feature's routes, one plugin per feature folder (its routes.ts). */
const FEATURE_ROUTES = [
  operationsRoutes,
  authRoutes,
  accountRoutes,
  callsRoutes,
  dashboardRoutes,
  agencyRoutes,
  liveRoutes,
  billingRoutes,
  demoRoutes,
  outcomesRoutes,
  qualityRoutes,
  notificationsRoutes,
  reportsRoutes,
  teamsRoutes,
  privacyRoutes,
  brandRoutes,
];

export interface BuildAppOptions {
  /** Folder of the built browser app; served with an SPA fallback when it exists. */
  webDir?: string;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const headers = securityHeaders(deps.config);
  const limits = deps.config.http;
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, written by request-log.ts (Fastify's own are two, at info).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    // Client IPs feed the login limits: a forwarded-for header is trusted only from configured proxies.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the deadlines above on this interval (30 s by default, which could double them).
      connectionsCheckingInterval: Math.min(5_000, limits.headersTimeoutMs),
    },
    // Answers Fastify gives before any route or hook: the app's envelope, never the input echoed.
    frameworkErrors: (error, _request, frameworkReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      // The hook's reply carries the server's generic parameters; it is a FastifyReply
      (frameworkReply as FastifyReply)
        .code(tooLong ? 414 : 400)
        .headers(headers)
        .header('cache-control', 'no-store')
        .send({ message: tooLong ? 'A part of the URL is too long' : 'The URL is not valid' });
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, headers),
    // Fastify's own 503 while closing has its shape and none of our headers; the hook below answers it.
    return503OnClosing: false,
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  // API answers (the call log with transcripts, above all) shrink 4-8x: what a phone on a slow
  // network waits for. Brotli at quality 4 costs less CPU than gzip's default for a similar
  // size; static assets are already compressed at build time and pass through untouched.
  // A streaming route (server-sent events) must opt out with `compress: false` in its options.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // Signed-in answers are one person's data: no shared or browser cache may keep them.
    const path = routePath(request);
    if (path.startsWith('/api/client/') || path.startsWith('/api/admin/')) {
      reply.header('cache-control', 'no-store');
    }
    if (closing) {
      // A request that arrives on a kept-alive connection while this instance shuts down: the
      // load balancer or browser retries it elsewhere.
      reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', '1')
        .send({ message: 'This server is restarting. Try again in a moment.' });
      return;
    }
    done();
  });

  // Every JSON body is bounded in depth before it is parsed (json-body.ts).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      // parseAs 'string' hands the body over as a string; the type still allows a Buffer
      assertJsonDepth(body as string);
    } catch (error) {
      // A catch binding is unknown; assertJsonDepth throws only HttpErrors
      return done(error as Error, undefined);
    }
    // parseAs 'string' hands the body over as a string; the type still allows a Buffer
    parseJson(request, body as string, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = routePath(request);
    if (!isStateChanging(request.method) || !path.startsWith('/api/')) return;
    if (path.startsWith('/api/webhooks/')) return; // providers post from their own servers
    if (
      !isSameOrigin(
        request.headers.origin ?? refererOrigin(request.headers.referer),
        request,
        deps.config.publicUrl,
      )
    ) {
      return reply.code(403).send({ message: 'Cross-origin request refused' });
    }
  });

  registerGuards(app);
  observeRequests(app, deps.metrics);

  app.setErrorHandler((error, request, reply) => {
    const invalid = schemaValidationError(error);
    if (invalid) return reply.code(400).send({ message: invalid.message, fields: invalid.fields });
    if (isPaymentError(error)) {
      // A refused card is the buyer's business; any other provider failure is ours to look at.
      if (error.kind !== 'card') {
        request.log.warn(
          { provider: error.provider, kind: error.kind, detail: error.detail },
          'payment provider error',
        );
      }
      const answer = paymentHttpError(error);
      return reply.code(answer.statusCode).send({ message: answer.message });
    }
    if (isVoiceProviderError(error)) {
      if (error.code !== 'provider_not_found' && error.code !== 'recording_expired') {
        request.log.warn({ code: error.code, upstreamStatus: error.upstreamStatus }, 'voice provider error');
      }
      // A client reads the platform's name only when its agency shows it.
      const client = request.client;
      const answer = voiceHttpError(error, client ? platformNameFor(deps.voices, client) : undefined);
      return reply.code(answer.statusCode).send({ message: answer.message });
    }
    if (error instanceof TwilioError) {
      // A number Twilio refuses is the sender's to fix; Twilio down or busy is ours to look at.
      if (!error.permanent) request.log.warn({ status: error.status, code: error.code }, 'twilio error');
      return error.permanent
        ? reply.code(400).send({ message: SMS_NUMBER_MESSAGES.twilioRefused })
        : reply.code(502).send({ message: SMS_NUMBER_MESSAGES.twilioDown });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
        ...error.flags,
      });
    }
    if (error instanceof ZodError) {
      const fields = zodFields(error);
      return reply.code(400).send({ message: Object.values(fields)[0] ?? 'Invalid input', fields });
    }
    // An error handler's error is loosely typed; both fields are read as optional
    const { statusCode: status, message } = error as { statusCode?: number; message?: string };
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ message: clientErrorMessage(status, message ?? '') });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Internal server error' });
  });

  await registerApiDocs(app);
  // For load balancers and the test harness: answers once the database is reachable.
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Check that the server and its database answer',
        tags: ['public'],
        ...apiDoc({
          responses: ok('The database answered.', {
            type: 'object',
            required: ['ok'],
            properties: { ok: { type: 'boolean', enum: [true] } },
          }),
        }),
      },
    },
    async () => {
      await deps.db.selectFrom('plans').select('id').limit(1).execute();
      return { ok: true };
    },
  );
  // Each feature's one routes.ts; /healthz, /readyz and /metrics are operations'.
  for (const routes of FEATURE_ROUTES) await app.register(routes);
  await app.register(robotsRoutes);

  // Decided once: @fastify/static serves the files present at start (`npm start` builds first).
  const webDir =
    options.webDir && existsSync(path.join(options.webDir, 'index.html')) ? options.webDir : null;
  if (webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (scripts/vite-precompress.ts).
      preCompressed: true,
      // The HTML is only ever sent with the brand in it (the not-found handler below), /index.html too.
      globIgnore: ['index.html', 'index.html.br', 'index.html.gz'],
      setHeaders(reply, filePath) {
        // Vite names assets by content hash, so they never change; the HTML always revalidates.
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  // The app's HTML with the brand in its head (brand/first-html.ts): read once, branded per request.
  const firstHtml = webDir
    ? createFirstHtml(
        readFileSync(path.join(webDir, 'index.html'), 'utf8'),
        async () => (await loadBrand(deps)).publicBrand,
        deps.config.brandName,
        (error) => app.log.warn({ err: error }, 'brand not read for the first HTML'),
      )
    : null;

  app.setNotFoundHandler(async (request, reply) => {
    // A missing hashed asset (an old bundle, a file built after start) must not get the HTML page.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (isPage && firstHtml) {
      // Every browser route (and unknown ones: the app shows its 404 page) gets the app's HTML.
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await firstHtml());
    }
    if (isPage && options.webDir) {
      return reply
        .code(503)
        .send({ message: 'The browser app is not built yet: run `npm run build` and restart' });
    }
    return reply.code(404).send({ message: 'Not found' });
  });

  return app;
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (a header section over 16 KB, a
 * malformed request line, a body still arriving at the request deadline), answered on the socket.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, headers: HeaderMap): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is malformed'];
  socket.end(rawJsonAnswer(status, STATUS_CODES[status] ?? 'Error', message, headers));
}

/**
 * The path a request is judged by: the matched route's pattern, as the guards use it. The raw URL
 * can spell the same route differently (`/api/%63lient/stats` reaches /api/client/stats), so a
 * check on it could be stepped around.
 */
function routePath(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split('?')[0];
}

/** Fastify takes a hop count at run time (request.js) but its types omit it: say it as a function. */
function trustProxyOption(
  trust: boolean | number | string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Browsers always send Origin on cross-site writes, so a missing Origin/Referer means a
 * non-browser client (scripts, tests), which cookies alone cannot be forged for.
 */
function isSameOrigin(origin: string | undefined, request: FastifyRequest, publicUrl: string): boolean {
  if (!origin) return true;
  if (origin === new URL(publicUrl).origin) return true;
  const host = request.headers.host;
  return !!host && (origin === `http://${host}` || origin === `https://${host}`);
}

function clientErrorMessage(status: number, message: string): string {
  if (status === 413) return 'Request body is too large (limit 1 MB)';
  if (status === 415) return 'Unsupported content type: send JSON';
  if (message.includes('JSON')) return 'Request body is not valid JSON';
  return message || 'Bad request';
}
