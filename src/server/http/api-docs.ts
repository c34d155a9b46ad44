/**
 * The API described as OpenAPI 3, generated from the same Zod schemas the routes validate with
 * (src/contract through route-schemas.ts): the document at /api/openapi.json, Swagger UI at
 * /api/docs. Registered before the routes, since @fastify/swagger collects them as they are added.
 *
 * What a route is decides most of its description (`derivedErrors` and `completeDescription` below):
 *   - a body, query or path parameter → 400 (`{message, fields}`); a write (POST, PUT, PATCH,
 *     DELETE) → 400, 413 and 415 too, since Fastify reads the body of any write;
 *   - a client or admin path (auth/guards.ts) → 401 and the session cookie as its security;
 *     an admin path → 403 (a client's session); a client path → 403 (a role without the route's
 *     permission); any write outside the webhooks → 403 (cross-origin);
 *   - a path parameter → 404; every operation → 5XX.
 * Every error answers the one `Error` schema (errors.ts, app.ts's error handler).
 *
 * What cannot be derived is one entry per operation in OPERATIONS: its summary, and
 *   - a status the route answers beyond those, answering `{message}`: add it to `errors`, e.g.
 *       'POST /api/client/calls/sync': { summary: '…', errors: [409, 429, 502] },
 *     That is the one line to change when a route gains a status (a new cap's 429, a busy 409).
 *   - a success that is not the route's JSON: `responses: redirect(303, …)`, `file(…)`, `ok(…)`;
 *   - a body read raw (the webhooks), or a security the path's prefix does not imply.
 * A status whose body says more than `{message}` is declared in the route's own `schema.response`
 * (e.g. the sync's 409 with its run): that schema is kept and its entry needs nothing for it.
 * A new route needs an entry: tests/api/api-docs.test.ts fails without one, and every API test
 * fails on an answer the description does not list (tests/helpers/api-description-check.ts).
 */
import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DATE_RANGES, DEFAULT_DATE_RANGE } from '../../contract/common';
import { COOKIE_NAMES } from '../auth/sessions';
import type { Access } from '../auth/guards';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

type Json = Record<string, unknown>;

interface OperationDoc {
  summary: string;
  /** Error statuses beyond the derived ones, each answering the shared Error body. */
  errors?: number[];
  /** Responses replacing or added to the route's (redirects, downloads, partial content). */
  responses?: Record<string, Json>;
  /** A request body the route reads raw, so its schema cannot say it. */
  body?: Json;
  description?: string;
  /** Who may call it, when the path's prefix does not say (auth/guards.ts). */
  security?: Record<string, string[]>[];
}

/** Fastify's `/:id` as OpenAPI's `/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Call Analytics & Management Platform API',
        description:
          'Client endpoints (`/api/client/*`) need the client session cookie, admin endpoints ' +
          '(`/api/admin/*`) the admin session cookie; both come from the login endpoints. Writes ' +
          'from a browser must come from the app’s own origin. Errors answer `{message}` (400s add ' +
          '`fields`, the first message per input field). Updates are patches: a body field left out ' +
          'keeps its stored value, never a default. An unknown query value is a 400 naming the parameter.',
        version: '1.0.0',
        license: { name: 'Proprietary' },
      },
      servers: [{ url: app.deps.config.publicUrl.replace(/\/+$/, ''), description: 'This installation' }],
      tags: [
        { name: 'admin', description: 'Administrators: clients, onboarding, sync' },
        { name: 'auth', description: 'Sign in and out' },
        { name: 'client', description: 'The signed-in client: calls, account, billing' },
        { name: 'public', description: 'Demo, recordings, provider webhooks, health' },
        {
          name: 'operations',
          description: 'Probes and metrics for load balancers and Prometheus (docs/operations.md)',
        },
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      return { ...transformed, schema: { tags: [tagOf(input.url)], ...transformed.schema } };
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? (completeDescription(document.openapiObject as Json, app) as typeof document.openapiObject)
        : document.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { url: OPENAPI_PATH } });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

function tagOf(url: string): string {
  if (url === '/healthz' || url === '/readyz' || url === '/metrics') return 'operations';
  if (/\/(login|logout|session)$/.test(url)) return 'auth';
  if (url.startsWith('/api/client/')) return 'client';
  if (url.startsWith('/api/admin/')) return 'admin';
  return 'public';
}

const SECURITY_SCHEMES = {
  clientSession: {
    type: 'apiKey' as const,
    in: 'cookie',
    name: COOKIE_NAMES.client,
    description: 'The client session, set by POST /api/client/login.',
  },
  adminSession: {
    type: 'apiKey' as const,
    in: 'cookie',
    name: COOKIE_NAMES.admin,
    description: 'The admin session, set by POST /api/admin/login.',
  },
  metricsBearer: {
    type: 'http' as const,
    scheme: 'bearer',
    description: 'METRICS_TOKEN, for GET /metrics on the main port.',
  },
  webhookBearer: {
    type: 'http' as const,
    scheme: 'bearer',
    description:
      'Vapi’s Bearer-token credential on the voice webhook: the webhook signing secret as the token.',
  },
};

const CLIENT = [{ clientSession: [] }];
const ADMIN = [{ adminSession: [] }];
const SECURITY_OF: Record<Access, Record<string, string[]>[]> = {
  client: CLIENT,
  admin: ADMIN,
  client_or_admin: [...CLIENT, ...ADMIN],
  public: [],
};

/** The error answers, one shared response each, all with the Error body. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'The input was refused: `message` names the first bad field, `fields` holds each field’s first message.',
  },
  401: { name: 'Unauthorized', description: 'Not signed in, or the credentials or signature were refused.' },
  402: { name: 'PaymentRequired', description: 'The payment was declined or still needs the card holder.' },
  403: {
    name: 'Forbidden',
    description: 'Signed in but not allowed (an admin path with a client session), or a cross-origin write.',
  },
  404: { name: 'NotFound', description: 'No such resource for this account.' },
  409: { name: 'Conflict', description: 'Not possible in the resource’s present state.' },
  410: { name: 'Gone', description: 'The recording has expired at the voice platform.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 1 MiB.' },
  414: { name: 'UriTooLong', description: 'A part of the URL is too long.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not JSON.' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many attempts or requests; `Retry-After`, when present, says when to try again.',
  },
  502: { name: 'BadGateway', description: 'The voice or payment platform failed or could not be reached.' },
  503: { name: 'ServiceUnavailable', description: 'Not configured here, or the server is restarting.' },
};
const SERVER_ERROR = {
  name: 'ServerError',
  description: 'A failure on our side; details are logged, not sent.',
};

const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error answer (errors.ts).',
  required: ['message'],
  properties: {
    message: { type: 'string', description: 'For people: what went wrong and what to do.' },
    fields: {
      type: 'object',
      description: 'For 400s: the first message per input field, keyed by the field’s path.',
      additionalProperties: { type: 'string' },
    },
    mustChangePassword: {
      type: 'boolean',
      description: 'On a 403: the password is one the agency chose; change it first.',
    },
  },
  additionalProperties: false,
};

const errorRef = (status: number) => ({
  $ref: `#/components/responses/${ERROR_RESPONSES[status]?.name ?? `Error${status}`}`,
});

/** A redirect answer: no body, the target in Location. */
function redirect(status: 302 | 303, description: string): Record<string, Json> {
  return {
    [status]: {
      description,
      headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
    },
  };
}

/** A download or stream: its media types, without a JSON schema. */
function file(description: string, ...types: string[]): Json {
  const schema = types[0]?.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' };
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

/** A download that is a JSON document (a receipt, a caller's data), or also a PDF. */
function jsonDownload(description: string, alsoPdf = false): Json {
  return {
    description,
    content: {
      'application/json': { schema: { type: 'object' } },
      ...(alsoPdf ? { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } : {}),
    },
  };
}

/** The caller's calls: the record as JSON (the default), a CSV row per call, or a readable PDF. */
const SUBJECT_EXPORT: Json = {
  description: 'The caller’s calls in the `format` asked for (JSON unless csv or pdf).',
  content: {
    'application/json': { schema: { type: 'object' } },
    'text/csv': { schema: { type: 'string' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};

const RECORDING: Record<string, Json> = {
  200: file('The recording (Range passes through to the platform).', 'audio/mpeg'),
  206: file('The part of the recording the Range asked for.', 'audio/mpeg'),
};
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXPORT = { 200: file('The call log as CSV or XLSX (`format`).', 'text/csv', XLSX) };
const EVENTS = {
  200: file(
    'Server-sent events (`call`, `refresh`), held open while the session lasts.',
    'text/event-stream',
  ),
};

/** A JSON success the route declares no schema for. */
const ok = (description: string, schema: Json) => ({
  200: { description, content: { 'application/json': { schema } } },
});
const SIGNED_OUT = ok('Signed out (also when there was no session).', {
  type: 'object',
  required: ['success'],
  properties: { success: { type: 'boolean', enum: [true] } },
});

const RECEIVED = {
  type: 'object',
  required: ['received'],
  properties: { received: { type: 'boolean', enum: [true] }, duplicate: { type: 'boolean' } },
};
const received = (description: string) => ok(description, RECEIVED);

const nullableString = { type: 'string', nullable: true };
const VOICE_WEBHOOK_BODY: Json = {
  description:
    'What the client’s voice platform posts, read as the client’s platform sends it. The body is ' +
    'read raw (its signature covers the bytes): Bland signs with `X-Webhook-Signature`, Vapi with ' +
    '`X-Vapi-Secret`, a Bearer token or `x-vapi-signature`, Retell with `X-Retell-Signature`.',
  required: true,
  content: {
    'application/json': {
      schema: {
        anyOf: [
          {
            title: 'Bland call or event',
            type: 'object',
            description:
              'A finished call (`call_id` with its fields) or a live event (`call_id`, `message`, `category`).',
            required: ['call_id'],
            properties: {
              call_id: { type: 'string' },
              to: nullableString,
              from: nullableString,
              call_length: { type: 'number', nullable: true, description: 'Minutes' },
              created_at: nullableString,
              completed: { type: 'boolean', nullable: true },
              status: nullableString,
              recording_url: nullableString,
              price: { type: 'number', nullable: true },
              transcripts: { type: 'array', nullable: true, items: { type: 'object' } },
              summary: nullableString,
              message: { ...nullableString, description: 'A live event’s text' },
              category: nullableString,
            },
            additionalProperties: true,
          },
          {
            title: 'Vapi server message',
            type: 'object',
            description:
              'An `end-of-call-report` is stored as a call; any other message type is acknowledged.',
            required: ['message'],
            properties: {
              message: {
                type: 'object',
                required: ['type'],
                properties: {
                  type: { type: 'string', example: 'end-of-call-report' },
                  call: {
                    type: 'object',
                    properties: { id: { type: 'string' }, type: { type: 'string' } },
                    additionalProperties: true,
                  },
                  endedReason: { type: 'string' },
                  cost: { type: 'number' },
                },
                additionalProperties: true,
              },
            },
            additionalProperties: true,
          },
          {
            title: 'Retell event',
            type: 'object',
            description:
              '`call_ended` and `call_analyzed` are stored as a call; other events are acknowledged.',
            required: ['event', 'call'],
            properties: {
              event: { type: 'string', example: 'call_ended' },
              call: {
                type: 'object',
                required: ['call_id'],
                properties: {
                  call_id: { type: 'string' },
                  call_status: { type: 'string' },
                  start_timestamp: { type: 'number' },
                  end_timestamp: { type: 'number' },
                  disconnection_reason: { type: 'string' },
                },
                additionalProperties: true,
              },
            },
            additionalProperties: true,
          },
        ],
      },
    },
  },
};

const STRIPE_EVENT_BODY: Json = {
  description: 'A Stripe event, read raw: `Stripe-Signature` covers its bytes.',
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'type', 'data'],
        properties: {
          id: { type: 'string' },
          type: { type: 'string', example: 'invoice.paid' },
          data: { type: 'object', properties: { object: { type: 'object' } } },
        },
        additionalProperties: true,
      },
    },
  },
};

const PAYPAL_EVENT_BODY: Json = {
  description:
    'A PayPal webhook event, read raw and verified with PayPal (the `PAYPAL-TRANSMISSION-*` headers).',
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'event_type'],
        properties: {
          id: { type: 'string' },
          event_type: { type: 'string', example: 'BILLING.SUBSCRIPTION.ACTIVATED' },
          resource: { type: 'object' },
        },
        additionalProperties: true,
      },
    },
  },
};

/**
 * One line per operation, keyed by method and OpenAPI path. `errors` lists the statuses it answers
 * beyond the derived ones (see the top of this file).
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /api/health': {
    summary: 'Check that the server and its database answer',
    responses: ok('The database answered.', {
      type: 'object',
      required: ['ok'],
      properties: { ok: { type: 'boolean', enum: [true] } },
    }),
  },
  'GET /healthz': {
    summary: 'Liveness: the process answers (the database is not asked)',
    description: 'For a process supervisor or an orchestrator’s liveness probe; never logged.',
  },
  'GET /readyz': {
    summary: 'Readiness: whether this instance should get traffic (503 naming what failed)',
    description:
      'Checks, in order: start-up done and not stopping (503 from SIGTERM on), the database answers, ' +
      'every migration applied, no due outbox message older than READY_OUTBOX_MAX_AGE_MS, the live ' +
      'hub reading. `failing` lists those that failed; what each part found (`checks`) only with ' +
      '`Authorization: Bearer <METRICS_TOKEN>`. Never logged.',
  },
  'GET /metrics': {
    summary: 'Prometheus metrics (text exposition format), with the METRICS_TOKEN bearer token',
    description:
      'HTTP request durations by route and status, provider deliveries, sync runs, the outbox, live ' +
      'streams, the database pool, the last backup and the process’s own figures (docs/operations.md). ' +
      '404 when METRICS_TOKEN is not set (METRICS_PORT serves them on loopback instead).',
    responses: {
      200: file('The metrics, Prometheus text format 0.0.4.', 'text/plain'),
    },
    errors: [401, 404],
    security: [{ metricsBearer: [] }],
  },
  'GET /api/login': {
    summary: 'Send the browser to the sign-in page',
    responses: redirect(302, 'To the client sign-in page'),
  },

  // Signing in and out
  'POST /api/client/login': {
    summary: 'Sign a client in (sets the client session cookie)',
    errors: [401, 429],
  },
  'POST /api/client/logout': { summary: 'Sign the client out', responses: SIGNED_OUT },
  'GET /api/client/session': { summary: 'The signed-in client', errors: [401], security: CLIENT },
  'POST /api/admin/login': {
    summary: 'Sign an admin in (sets the admin session cookie)',
    errors: [401, 429],
  },
  'POST /api/admin/logout': { summary: 'Sign the admin out', responses: SIGNED_OUT },
  'GET /api/admin/session': { summary: 'The signed-in admin', errors: [401], security: ADMIN },

  // Two-factor sign-in: the login's second step, and each person's own settings
  'POST /api/client/login/2fa': {
    summary: 'Complete a sign-in that answered twoFactorRequired, with a TOTP or recovery code',
    errors: [401, 429],
  },
  'POST /api/admin/login/2fa': {
    summary: 'Complete an admin sign-in that answered twoFactorRequired, with a TOTP or recovery code',
    errors: [401, 429],
  },
  'GET /api/client/2fa': { summary: 'Whether two-factor sign-in is on for me, and required' },
  'POST /api/client/2fa/setup': {
    summary: 'Start setting up two-factor sign-in (a secret to scan)',
    errors: [409],
  },
  'POST /api/client/2fa/enable': {
    summary: 'Turn two-factor sign-in on with a code; answers the ten recovery codes, once',
    errors: [409, 429],
  },
  'POST /api/client/2fa/disable': {
    summary: 'Turn two-factor sign-in off with a TOTP or recovery code',
    errors: [409, 429],
  },
  'PUT /api/client/2fa/requirement': {
    summary: 'Require two-factor sign-in of every user of the account (Owners)',
    errors: [409],
  },
  'GET /api/admin/2fa': { summary: 'Whether two-factor sign-in is on for this admin, and required' },
  'POST /api/admin/2fa/setup': {
    summary: 'Start setting up two-factor sign-in (a secret to scan)',
    errors: [409],
  },
  'POST /api/admin/2fa/enable': {
    summary: 'Turn two-factor sign-in on with a code; answers the ten recovery codes, once',
    errors: [409, 429],
  },
  'POST /api/admin/2fa/disable': {
    summary: 'Turn two-factor sign-in off with a TOTP or recovery code',
    errors: [409, 429],
  },
  'PUT /api/admin/2fa/requirement': { summary: 'Require two-factor sign-in of every admin', errors: [409] },

  // The client's account
  'PUT /api/client/account': { summary: 'Update the account’s profile', errors: [404, 409] },
  'POST /api/client/change-password': { summary: 'Change the password', errors: [429] },

  // The client's team
  'GET /api/client/users': { summary: 'The people of the account, with their roles' },
  'POST /api/client/users': { summary: 'Invite a person (e-mails the invitation)', errors: [409, 429] },
  'PATCH /api/client/users/{id}': {
    summary: 'Change a person’s role, extra permissions or access (a patch)',
    errors: [409],
  },
  'DELETE /api/client/users/{id}': { summary: 'Remove a person, or revoke an invitation', errors: [409] },
  'POST /api/client/users/{id}/resend-invite': {
    summary: 'Send the invitation again (the previous link stops working)',
    errors: [409, 429],
  },
  // A person's own sessions, and the account's activity log
  'GET /api/client/sessions': { summary: 'Where the signed-in person is signed in (this device marked)' },
  'DELETE /api/client/sessions/{id}': {
    summary: 'End one of the signed-in person’s sessions (the current one signs this browser out)',
  },
  'POST /api/client/sessions/end-others': { summary: 'End every other session of the signed-in person' },
  'GET /api/client/activity': { summary: 'The account’s activity log, newest first, filtered and paged' },
  'GET /api/client/activity/export': {
    summary: 'Download the filtered activity log as CSV',
    errors: [429],
    responses: { 200: file('The activity log as CSV.', 'text/csv') },
  },
  'POST /api/client/invitations/lookup': {
    summary: 'Whose invitation (or password-reset link) a token is: the company’s name, before accepting',
    errors: [401, 410],
  },
  'POST /api/client/invitations/accept': {
    summary: 'Accept an invitation: set name and password, and sign in (sets the client session cookie)',
    errors: [401, 409, 410],
  },
  'PUT /api/client/api-key': { summary: 'Replace the voice platform API key', errors: [403, 429, 502] },
  'PUT /api/client/webhook-signing-secret': { summary: 'Set or remove the voice webhook signing secret' },
  'POST /api/client/rotate-webhook': { summary: 'Replace the voice webhook URL (the old one stops working)' },
  'GET /api/client/notifications': { summary: 'Notification preferences' },
  'PUT /api/client/notifications': { summary: 'Update notification preferences' },
  'GET /api/client/notifications/channels': { summary: 'Which notification channels this server can send' },
  'GET /api/client/me/notifications': { summary: 'The signed-in person’s own notification choices' },
  'PUT /api/client/me/notifications': { summary: 'Save the signed-in person’s own notification choices' },
  'POST /api/client/me/notifications/sms-code': {
    summary: 'Text a 6-digit code to the person’s number, to verify it for texts',
    description:
      'Texts go only to a verified mobile number: this texts a code, good for 10 minutes and 5 tries, to the number texts would go to (`smsTo`). Premium-rate, shared-cost, satellite and other numbers that are not mobile are refused (400); an already verified number answers 409; a code costs one of the client’s texts for the day (TEXTS_PER_CLIENT_PER_DAY) and codes are capped per user (CAP_SMS_CODES_PER_HOUR): 429. 502 when Twilio fails, 503 when this server sends no texts.',
    errors: [409, 429, 502, 503],
  },
  'POST /api/client/me/notifications/sms-code/confirm': {
    summary: 'Confirm the code texted to the person’s number: texts may go to it from now on',
  },
  'GET /api/client/preferences': { summary: 'The client’s interface preferences' },
  'PUT /api/client/preferences': { summary: 'Save the client’s interface preferences' },
  'GET /api/admin/preferences': { summary: 'The admin’s interface preferences' },
  'PUT /api/admin/preferences': { summary: 'Save the admin’s interface preferences' },

  // The client's calls
  'GET /api/client/calls': {
    summary: 'The call log, filtered and paged',
    // A search by phone number of someone who sees numbers masked is capped (teams/number-searches.ts).
    errors: [429],
    description:
      'Newest first unless `sort` says otherwise, with a `search` too; `sort=relevance` ranks the newest 1,000 matches of a word search best match first. A searched or quality-filtered log counts up to 1,000: past that `pagination.total` is 1,000 with `totalIsLowerBound: true`. Each full page names the next in `pagination.nextAfter`: pass it back as `after` (with the same filters and sort, `page` then only numbers the page). A search is read past its first 1,000 calls only this way (keyset); a `page` beyond them without `after` answers 400. For someone who sees numbers masked, searches by phone number are capped per hour (429 with `Retry-After`).',
  },
  'GET /api/client/stats': { summary: 'Call statistics for a period' },
  'GET /api/client/dashboard': {
    summary:
      'The dashboard’s first screen in one read (log, stats, charts, outcomes, attention, live, account)',
    errors: [429],
  },
  'GET /api/client/calls-over-time': { summary: 'Calls per day or hour for the chart' },
  'GET /api/client/calls/{id}': { summary: 'One call with its transcript' },
  'DELETE /api/client/calls/{id}': { summary: 'Delete a call' },
  'GET /api/client/calls/export': {
    summary: 'Download the filtered call log',
    errors: [429],
    responses: EXPORT,
  },
  'POST /api/client/calls/sync': { summary: 'Fetch the latest calls from the voice platform', errors: [502] },
  'GET /api/client/calls/sync/runs/{runId}': { summary: 'Follow a sync running in the background' },
  'GET /api/client/recording/{id}': {
    summary: 'Stream a call’s recording',
    errors: [410, 502],
    responses: RECORDING,
  },
  'GET /api/client/events': {
    summary: 'Live call events for the signed-in client',
    errors: [429],
    responses: EVENTS,
  },
  'GET /api/client/sample-calls': { summary: 'Whether the account has sample calls' },
  'DELETE /api/client/sample-calls': { summary: 'Remove the sample calls' },
  'GET /api/client/outcomes': { summary: 'The account’s outcome rules' },
  'PUT /api/client/outcomes': { summary: 'Save the outcome rules' },
  'POST /api/client/outcomes/preview': {
    summary: 'Preview outcome rules against recent calls',
    errors: [429],
  },
  'GET /api/client/outcomes/summary': { summary: 'Calls per outcome for a period' },
  'GET /api/client/quality/summary': { summary: 'How well the agent spoke: a period against the one before' },
  'GET /api/client/quality/thresholds': { summary: 'What puts a call in Needs attention for its quality' },
  'PUT /api/client/quality/thresholds': { summary: 'Save the quality thresholds (re-classifies the calls)' },
  'GET /api/client/outcomes-over-time': { summary: 'Outcomes per day for the chart' },
  'GET /api/client/attention': { summary: 'Calls that still need a person' },
  'POST /api/client/calls/{id}/handled': { summary: 'Mark a call as handled' },
  // Masked numbers and the privacy settings
  'POST /api/client/calls/{id}/unmask': {
    summary: 'Show one call’s numbers in full (recorded in the activity log)',
  },
  'GET /api/client/privacy': { summary: 'The account’s privacy settings' },
  'PUT /api/client/privacy': { summary: 'Change the account’s privacy settings' },
  // Callers' personal data
  'POST /api/client/erasure': {
    summary: 'Erase every call of a caller (phone number or e-mail), here and at the platform',
    errors: [429],
  },
  'POST /api/client/erasure/preview': { summary: 'How many calls erasing a caller would remove, and a few' },
  'GET /api/client/erasure': { summary: 'The latest caller erasures' },
  'GET /api/client/erasure/{id}': { summary: 'Where a caller erasure stands' },
  'GET /api/client/erasure/{id}/receipt': {
    summary: 'Download an erasure’s receipt (PDF or JSON)',
    errors: [409],
    responses: {
      200: jsonDownload('The caller’s confirmation as a PDF, or (format=json) the whole record.', true),
    },
  },
  'GET /api/client/erasure/{id}/report': {
    summary: 'Download an erasure’s internal report (PDF)',
    errors: [409],
    responses: {
      200: file('What was removed, by kind, and each platform’s answer per call.', 'application/pdf'),
    },
  },
  'POST /api/client/subject-export': {
    summary: 'Download every call of a caller’s number (JSON, CSV or PDF)',
    errors: [429],
    responses: { 200: SUBJECT_EXPORT },
  },
  'GET /api/client/reports/monthly': {
    summary: 'Download a month’s report',
    responses: { 200: file('The month’s report.', 'application/pdf') },
  },

  // The client's outgoing webhook
  'GET /api/client/integrations/webhook': { summary: 'The client’s outgoing webhook' },
  'PUT /api/client/integrations/webhook': {
    summary: 'Set the outgoing webhook’s URL and events',
    errors: [429],
  },
  'DELETE /api/client/integrations/webhook': { summary: 'Remove the outgoing webhook' },
  'POST /api/client/integrations/webhook/rotate': {
    summary: 'Replace the outgoing webhook’s signing secret',
    errors: [404],
  },
  'POST /api/client/integrations/webhook/test': {
    summary: 'Send a test event to the outgoing webhook',
    errors: [404, 429],
  },
  'GET /api/client/integrations/webhook/deliveries': { summary: 'Recent deliveries of the outgoing webhook' },
  'POST /api/client/integrations/webhook/deliveries/{id}/resend': {
    summary: 'Send a delivery again',
    errors: [409, 429],
  },

  // Billing
  'GET /api/client/subscription': { summary: 'The subscription, its plan and usage' },
  'GET /api/client/subscription-plans': { summary: 'The plans on offer' },
  'POST /api/client/subscription/cancel': { summary: 'Cancel at the end of the period', errors: [404, 409] },
  'POST /api/client/subscription/resume': {
    summary: 'Undo a cancellation',
    errors: [402, 404, 409, 502, 503],
  },
  'GET /api/client/subscription/change-preview': {
    summary: 'Preview a plan change and its charge',
    errors: [404, 409],
  },
  'POST /api/client/subscription/change-plan': {
    summary: 'Change plan',
    errors: [402, 404, 409, 429, 502, 503],
  },
  'POST /api/client/subscription/confirm-change': {
    summary: 'Confirm a plan change the bank authenticated',
    errors: [402, 404, 409, 502, 503],
  },
  'GET /api/billing/config': { summary: 'Which payment methods are on offer, and Stripe’s publishable key' },
  'POST /api/client/process-stripe-payment': {
    summary: 'Subscribe with a card',
    errors: [402, 404, 409, 429, 502, 503],
  },
  'POST /api/client/confirm-stripe-payment': {
    summary: 'Confirm a card payment the bank authenticated',
    errors: [402, 404, 409, 502, 503],
  },
  'PUT /api/client/payment-method': { summary: 'Replace the card', errors: [402, 404, 502, 503] },
  'POST /api/client/payment-method/setup-intent': {
    summary: 'Start adding a card',
    errors: [402, 404, 502, 503],
  },
  'GET /api/client/payment-action': {
    summary: 'A payment that waits for the card holder, if any',
    errors: [404],
  },
  'POST /api/client/payment-action/confirm': {
    summary: 'Confirm a payment that waited for the card holder',
    errors: [402, 404, 409, 502, 503],
  },
  'POST /api/client/process-paypal-payment': {
    summary: 'Subscribe with PayPal (answers where to approve it)',
    errors: [409, 429, 502, 503],
  },
  'GET /api/billing/paypal/return': {
    summary: 'Where PayPal sends the buyer back after approving',
    responses: redirect(303, 'To the subscription settings, with the outcome in the query'),
  },
  'GET /api/billing/paypal/cancel': {
    summary: 'Where PayPal sends the buyer back after cancelling',
    responses: redirect(303, 'To the subscription settings'),
  },

  // Provider webhooks
  'POST /api/webhooks/voice/{token}': {
    summary: 'Receive a call or event from the client’s voice platform (Bland, Vapi or Retell)',
    errors: [401, 429],
    body: VOICE_WEBHOOK_BODY,
    security: [{}, { webhookBearer: [] }],
  },
  'POST /api/webhooks/stripe': {
    summary: 'Receive a Stripe event',
    errors: [400, 503],
    body: STRIPE_EVENT_BODY,
    responses: received('Handled, or already handled before (`duplicate`).'),
  },
  'POST /api/webhooks/paypal': {
    summary: 'Receive a PayPal event',
    errors: [400, 502, 503],
    body: PAYPAL_EVENT_BODY,
    responses: received('Handled, or already handled before (`duplicate`).'),
  },

  // Recordings and the demo
  'GET /api/recording/{id}': {
    summary: 'Download a call’s recording (the client’s own, or any for an admin)',
    errors: [410, 502],
    responses: RECORDING,
  },
  'GET /api/demo/calls': { summary: 'The demo’s call log' },
  'GET /api/demo/calls/{id}': { summary: 'One demo call' },
  'GET /api/demo/stats': { summary: 'The demo’s call statistics' },
  'GET /api/demo/dashboard': { summary: 'The demo’s first screen in one read' },
  'GET /api/demo/calls-over-time': { summary: 'The demo’s calls per day or hour' },
  'GET /api/demo/outcomes/summary': { summary: 'The demo’s calls per outcome' },
  'GET /api/demo/quality/summary': { summary: 'The demo’s conversation quality' },
  'GET /api/demo/outcomes-over-time': { summary: 'The demo’s outcomes per day' },
  'GET /api/demo/attention': { summary: 'The demo’s calls that need a person' },
  'GET /api/demo/recording/{id}': {
    summary: 'Stream a demo call’s recording',
    errors: [410, 416, 502],
    responses: RECORDING,
  },
  'POST /api/demo/seed': {
    summary: 'Add sample calls to the signed-in client’s account',
    errors: [401, 409, 429],
    security: CLIENT,
  },

  // Admin: clients
  'GET /api/admin/clients': { summary: 'Every client with its totals' },
  'GET /api/admin/stats': { summary: 'The agency’s totals' },
  'GET /api/admin/client-config/{id}': { summary: 'A client’s configuration' },
  'PUT /api/admin/client-config/{id}': {
    summary: 'Update a client’s configuration',
    errors: [409, 429, 502],
  },
  'PUT /api/admin/clients/{id}/webhook-signing-secret': {
    summary: 'Set or remove a client’s voice webhook signing secret',
  },
  'POST /api/admin/clients/{id}/rotate-webhook': { summary: 'Replace a client’s webhook URL' },
  'POST /api/admin/clients/{id}/generate-credentials': {
    summary: 'Give a client a new temporary password',
    errors: [409],
  },
  'DELETE /api/admin/clients/{id}': { summary: 'Delete a client and its calls' },
  'POST /api/admin/generate-webhook': {
    summary: 'Start a new client: a draft with its webhook URL',
    errors: [409, 429],
  },
  'GET /api/admin/webhook-status/{id}': { summary: 'Whether a draft client’s webhook has been called' },
  'POST /api/admin/finalize-client/{id}': { summary: 'Finish creating a client', errors: [409] },
  'GET /api/admin/client-data/{clientId}': { summary: 'A client as its dashboard shows it' },
  'GET /api/admin/client-stats/{clientId}': { summary: 'A client’s call statistics' },
  'GET /api/admin/clients/{clientId}/dashboard': { summary: 'A client’s dashboard first screen in one read' },
  'GET /api/admin/client-calls-over-time/{clientId}': { summary: 'A client’s calls per day or hour' },
  'GET /api/admin/client-calls/{clientId}': { summary: 'A client’s call log' },
  'GET /api/admin/client-calls/{clientId}/{id}': { summary: 'One of a client’s calls' },
  'DELETE /api/admin/calls/{id}': { summary: 'Delete any client’s call' },
  'GET /api/admin/clients/{clientId}/calls/export': {
    summary: 'Download a client’s call log',
    errors: [429],
    responses: EXPORT,
  },
  'GET /api/admin/calls/export': {
    summary: 'Download every client’s call log',
    errors: [429],
    responses: EXPORT,
  },
  'GET /api/admin/client-recording/{clientId}/{id}': {
    summary: 'Stream one of a client’s recordings',
    errors: [410, 502],
    responses: RECORDING,
  },
  'POST /api/admin/sync-all-clients': { summary: 'Fetch the latest calls for every client' },
  'GET /api/admin/clients/{id}/deliveries': { summary: 'A client’s recent webhook deliveries' },
  'GET /api/admin/clients/{id}/deliveries/{deliveryId}': { summary: 'One webhook delivery as it arrived' },
  'POST /api/admin/clients/{id}/deliveries/{deliveryId}/replay': {
    summary: 'Process a stored webhook delivery again',
    errors: [409],
  },
  'GET /api/admin/clients/{id}/sync-runs': { summary: 'A client’s recent syncs' },
  'GET /api/admin/clients/{id}/users': {
    summary: 'A client’s users: role, status, last sign-in, two-factor',
  },
  'POST /api/admin/clients/{id}/users/{userId}/resend-invite': {
    summary: 'Send a client user’s invitation again (the previous link stops working)',
    errors: [409, 429],
  },
  'POST /api/admin/clients/{id}/users/{userId}/reset-2fa': {
    summary: 'Turn off a client user’s two-factor sign-in (ends their sessions)',
  },
  'POST /api/admin/clients/{id}/users/{userId}/reset-password': {
    summary: 'E-mail an active client user a single-use link to choose a new password; ends their sessions',
    errors: [409, 429],
  },
  'POST /api/admin/clients/{id}/sync': {
    summary: 'Fetch the latest calls for one client',
    errors: [409, 502],
  },
  'GET /api/admin/clients/{id}/sync/runs/{runId}': {
    summary: 'Follow a client’s sync running in the background',
  },
  'POST /api/admin/clients/{id}/test-call': {
    summary: 'Place a test call on a client’s number',
    errors: [502],
  },
  'GET /api/admin/clients/{id}/events': {
    summary: 'Live call events of one client',
    errors: [429],
    responses: EVENTS,
  },
  'GET /api/admin/client-privacy/{clientId}': { summary: 'A client’s privacy settings' },
  'PUT /api/admin/client-privacy/{clientId}': { summary: 'Change a client’s privacy settings' },
  'GET /api/admin/privacy-defaults': { summary: 'The agency’s privacy defaults' },
  'PUT /api/admin/privacy-defaults': { summary: 'Change the agency’s privacy defaults' },
  'POST /api/admin/client-erasure/{clientId}': {
    summary: 'Erase every call of a client’s caller, here and at the platform',
    errors: [429],
  },
  'POST /api/admin/client-erasure/{clientId}/preview': {
    summary: 'How many calls erasing a client’s caller would remove, and a few',
  },
  'GET /api/admin/client-erasure/{clientId}': { summary: 'A client’s latest caller erasures' },
  'GET /api/admin/client-erasure/{clientId}/{id}': { summary: 'Where a client’s caller erasure stands' },
  'GET /api/admin/client-erasure/{clientId}/{id}/receipt': {
    summary: 'Download a client’s erasure receipt (PDF or JSON)',
    errors: [409],
    responses: {
      200: jsonDownload('The caller’s confirmation as a PDF, or (format=json) the whole record.', true),
    },
  },
  'GET /api/admin/client-erasure/{clientId}/{id}/report': {
    summary: 'Download a client’s erasure report for the agency (PDF)',
    errors: [409],
    responses: {
      200: file('What was removed, by kind, and the platform’s answer per call.', 'application/pdf'),
    },
  },
  'POST /api/admin/client-subject-export/{clientId}': {
    summary: 'Download every call of a client’s caller (JSON, CSV or PDF)',
    errors: [429],
    responses: { 200: SUBJECT_EXPORT },
  },
  'GET /api/admin/client-outcomes/{clientId}': { summary: 'A client’s outcome rules' },
  'PUT /api/admin/client-outcomes/{clientId}': { summary: 'Save a client’s outcome rules' },
  'POST /api/admin/client-outcomes/{clientId}/preview': {
    summary: 'Preview a client’s outcome rules',
    errors: [429],
  },
  'GET /api/admin/client-outcomes/{clientId}/summary': { summary: 'A client’s calls per outcome' },
  'GET /api/admin/client-quality/{clientId}/summary': { summary: 'A client’s conversation quality' },
  'GET /api/admin/client-quality/{clientId}/thresholds': { summary: 'A client’s quality thresholds' },
  'PUT /api/admin/client-quality/{clientId}/thresholds': { summary: 'Save a client’s quality thresholds' },
  'GET /api/admin/client-outcomes/{clientId}/over-time': { summary: 'A client’s outcomes per day' },
  'GET /api/admin/client-attention/{clientId}': { summary: 'A client’s calls that need a person' },
  'POST /api/admin/client-calls/{clientId}/{id}/handled': { summary: 'Mark a client’s call as handled' },

  // Admin: the agency
  // The agency's brand
  'GET /api/brand': {
    summary: 'The agency’s name, images, colours and support details (public, no secrets)',
  },
  'GET /api/admin/brand': { summary: 'The saved brand, with what the contrast guard changed' },
  'PUT /api/admin/brand': { summary: 'Change the brand (a patch); answers it with the contrast report' },
  'DELETE /api/admin/brand': {
    summary: 'Forget the saved settings: the product’s own name, colours and landing page return',
    description:
      'The images stay (DELETE /api/admin/brand/logo removes them). Answers the brand as it now is.',
  },
  'POST /api/admin/brand/logo': {
    summary:
      'Upload the light or dark logo or the app icon (PNG, WebP or SVG, at most 1 MB); answers its address',
    description:
      'One file, multipart. The format is read from the bytes; every image is re-encoded (an SVG is ' +
      'drawn to PNG, so none of its scripts, handlers or links survive). A logo is kept 256 px high, ' +
      'at most 2048 px wide; the icon must be square and is kept at 512 × 512. 413 over 1 MB.',
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', format: 'binary', description: 'The image' } },
          },
        },
      },
    },
  },
  'DELETE /api/admin/brand/logo': {
    summary: 'Remove the light or dark logo or the app icon; answers the public brand without it',
  },
  'GET /api/admin/brand/dns': {
    summary: 'The SPF, DKIM and DMARC records MAIL_FROM’s domain needs, and which DNS holds',
    description:
      'check=false lists the records without asking DNS. A check asks each name once (3 s timeout); ' +
      'DNS that does not answer gives status "unknown". Capped per admin (CAP_DNS_CHECKS_PER_HOUR).',
    errors: [429],
  },
  'GET /api/admin/admins': { summary: 'The agency’s admins' },
  'POST /api/admin/admins': { summary: 'Add an admin (answers a temporary password)', errors: [409] },
  'POST /api/admin/admins/{adminId}/deactivate': { summary: 'Deactivate an admin', errors: [409] },
  'POST /api/admin/admins/{adminId}/activate': { summary: 'Activate an admin', errors: [409] },
  'POST /api/admin/admins/{adminId}/reset-password': { summary: 'Give an admin a new temporary password' },
  'GET /api/admin/analytics': { summary: 'Analytics across every client' },
  'GET /api/admin/at-risk': { summary: 'Clients whose calls or account need a look' },
  'GET /api/admin/audit': { summary: 'What admins did, newest first' },
};

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** The statuses an operation answers because of what it is (see the top of this file). */
function derivedErrors(method: string, path: string, op: Json, access: Access): number[] {
  const params = (op.parameters as { in: string }[] | undefined) ?? [];
  const statuses: number[] = [];
  const write = WRITES.has(method);
  if (params.length > 0 || op.requestBody || write) statuses.push(400);
  if (op.requestBody || write) statuses.push(413, 415);
  if (access !== 'public') statuses.push(401);
  // A signed-in path: a role without the route's permission (auth/permissions.ts), or two-factor
  // sign-in required and not set up (auth/two-factor-requirement.ts).
  if (access !== 'public' || (write && !path.startsWith('/api/webhooks/'))) statuses.push(403);
  if (params.some((p) => p.in === 'path')) statuses.push(404);
  return statuses;
}

/** Adds what the routes' schemas cannot say: errors, security, ids, summaries, webhook bodies. */
function completeDescription(openapi: Json, app: FastifyInstance): Json {
  const accessOf = new Map(app.routeTable.map((r) => [`${r.method} ${openApiPath(r.url)}`, r.access]));
  const used = new Set<number>();
  const paths = openapi.paths as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const doc: OperationDoc | undefined = OPERATIONS[key];
      const access = accessOf.get(key) ?? 'public';
      op.operationId ??= operationIdOf(method, path);
      op.summary ??= doc?.summary ?? key;
      if (doc?.description) op.description = doc.description;
      op.security = doc?.security ?? SECURITY_OF[access];
      if (doc?.body) op.requestBody = doc.body;
      for (const parameter of (op.parameters as Json[] | undefined) ?? []) describeParameter(parameter);

      const responses = { ...(op.responses as Record<string, Json>) };
      if (doc?.responses) {
        // A redirect or download replaces the generated (empty) 200.
        if (!('200' in doc.responses) && !('201' in doc.responses)) delete responses['200'];
        Object.assign(responses, doc.responses);
      }
      for (const [status, response] of Object.entries(responses))
        if (response.description === 'Default Response') response.description = describeStatus(status);
      for (const status of [...derivedErrors(method, path, op, access), ...(doc?.errors ?? [])]) {
        if (String(status) in responses) continue; // the route's own schema for it wins
        responses[status] = errorRef(status);
        used.add(status);
      }
      responses['5XX'] = { $ref: `#/components/responses/${SERVER_ERROR.name}` };
      op.responses = sortedByStatus(responses);
    }
  }

  const components = (openapi.components ?? {}) as Json;
  components.schemas = { ...(components.schemas as Json), Error: ERROR_SCHEMA };
  const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const shared: Json = {};
  for (const status of [...used].sort()) {
    const known = ERROR_RESPONSES[status];
    const name = known?.name ?? `Error${status}`;
    shared[name] = {
      description: known?.description ?? STATUS_CODES[status] ?? 'Error',
      content: errorBody,
      ...(status === 429 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    };
  }
  shared[SERVER_ERROR.name] = { description: SERVER_ERROR.description, content: errorBody };
  components.responses = shared;
  return { ...openapi, components };
}

/** For a status a route's schema declares without saying what it means. */
function describeStatus(status: string): string {
  const code = Number(status);
  return ERROR_RESPONSES[code]?.description ?? STATUS_CODES[code] ?? 'OK';
}

const RETRY_AFTER = { description: 'Seconds to wait before trying again', schema: { type: 'integer' } };

/** `dateRange` is parsed leniently (contract/common.ts), so its schema says nothing: give it its values. */
function describeParameter(parameter: Json): void {
  if (parameter.in !== 'query' || parameter.name !== 'dateRange') return;
  const schema = (parameter.schema ?? {}) as Json;
  if (schema.enum) return;
  parameter.schema = { type: 'string', enum: [...DATE_RANGES], default: DEFAULT_DATE_RANGE };
}

/** `GET /api/admin/clients/{id}/events` → `getAdminClientsByIdEvents`: stable while the path is. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((part) => part && part !== 'api')
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      return param ? `By-${param[1]}` : part;
    })
    .flatMap((part) => part.split(/[-_.]/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** 2xx, 3xx, then errors in order, so the description reads as the route behaves. */
function sortedByStatus(responses: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
