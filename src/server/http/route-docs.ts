/**
 * How a route is described in the API's OpenAPI document, and the rules that complete every
 * description. Each route says in its own `schema` what only it can say:
 *   - `summary` and `tags` (one of the document's tags: admin, auth, client, public, operations);
 *   - `description` and `security`, when the path's prefix does not say who may call it;
 *   - `...apiDoc({ errors, responses, rawBody })`: a status it answers beyond the derived ones
 *     (each with the shared Error body), e.g. `...apiDoc({ errors: [409, 429] })`: the one line
 *     to change when a route gains a status (a new cap's 429, a busy 409); a success that is not
 *     the route's JSON (`redirect(303, …)`, `file(…)`, `ok(…)`); a body read raw (the webhooks).
 * A status whose body says more than `{message}` is declared in the route's own `schema.response`
 * (e.g. the sync's 409 with its run): that schema is kept and needs nothing here.
 *
 * What a route is decides the rest (`derivedErrors` and `completeDescription` below):
 *   - a body, query or path parameter → 400 (`{message, fields}`); a write (POST, PUT, PATCH,
 *     DELETE) → 400, 413 and 415 too, since Fastify reads the body of any write;
 *   - a signed-in path (auth/guards.ts) → 401 and its session cookie as its security, and 403
 *     (a role without the route's permission, an admin path with a client's session); any write
 *     outside the webhooks → 403 (cross-origin);
 *   - a path parameter → 404; every operation → 5XX.
 * Every error answers the one `Error` schema (errors.ts, the app's error handler).
 *
 * tests/api/api-docs.test.ts fails on a route without a summary or a tag, and every API test
 * fails on an answer the description does not list (tests/helpers/api-description-check.ts).
 * Must not: name a feature (the composition root's api-docs.ts says who is signed in where).
 */
import { STATUS_CODES } from 'node:http';
import { DATE_RANGES, DEFAULT_DATE_RANGE } from '../../contract/common';

type Json = Record<string, unknown>;
/** The document's tags (api-docs.ts describes them); a route names one in `schema.tags`. */
export type ApiTag = 'admin' | 'auth' | 'client' | 'public' | 'operations';

/** OpenAPI's security requirement: any one of the listed schemes. */
export type Security = Record<string, string[]>[];

/** The error statuses a route may add to its derived ones, each answering the shared Error body. */
export type ExtraError = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 414 | 415 | 416 | 429 | 502 | 503;

export interface RouteDocExtras {
  /** Error statuses beyond the derived ones, each answering the shared Error body. */
  errors?: ExtraError[];
  /** Responses replacing or added to the route's (redirects, downloads, partial content). */
  responses?: Record<string, Json>;
  /** A request body the route reads raw, so its schema cannot say it. */
  rawBody?: Json;
}

declare module 'fastify' {
  interface FastifySchema {
    // Carried to the document as OpenAPI extensions and folded in by completeDescription.
    'x-errors'?: readonly number[];
    'x-responses'?: Record<string, Json>;
    'x-raw-body'?: Json;
  }
}

/** What a route's schema says of it beyond its input and its JSON answers (see the top of this file). */
export function apiDoc(extras: RouteDocExtras): {
  'x-errors'?: readonly number[];
  'x-responses'?: Record<string, Json>;
  'x-raw-body'?: Json;
} {
  return {
    ...(extras.errors ? { 'x-errors': extras.errors } : {}),
    ...(extras.responses ? { 'x-responses': extras.responses } : {}),
    ...(extras.rawBody ? { 'x-raw-body': extras.rawBody } : {}),
  };
}

/**
 * One mount of a route written once and mounted per audience (the calls views, the two-factor
 * settings): what that mount says of itself, a field of the view beside its path.
 */
export interface MountDoc {
  summary: string;
  description?: string;
  /** Statuses only this mount answers, beyond those every mount shares. */
  errors?: ExtraError[];
}

/** The schema fields of one mount: its tag, its own MountDoc, and what every mount shares. */
export function mountDoc(tag: ApiTag, doc: MountDoc, shared: RouteDocExtras = {}) {
  const errors = [...(shared.errors ?? []), ...(doc.errors ?? [])];
  return {
    summary: doc.summary,
    tags: [tag],
    ...(doc.description ? { description: doc.description } : {}),
    ...apiDoc({ ...shared, ...(errors.length ? { errors } : {}) }),
  };
}

export const CLIENT_SESSION: Security = [{ clientSession: [] }];
export const ADMIN_SESSION: Security = [{ adminSession: [] }];

/** A redirect answer: no body, the target in Location. */
export function redirect(status: 302 | 303, description: string): Record<string, Json> {
  return {
    [status]: {
      description,
      headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
    },
  };
}

/** A download or stream: its media types, without a JSON schema. */
export function file(description: string, ...types: string[]): Json {
  const schema = types[0]?.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' };
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

/** A download that is a JSON document (a receipt, a caller's data), or also a PDF. */
export function jsonDownload(description: string, alsoPdf = false): Json {
  return {
    description,
    content: {
      'application/json': { schema: { type: 'object' } },
      ...(alsoPdf ? { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } : {}),
    },
  };
}

/** A JSON success the route declares no schema for. */
export const ok = (description: string, schema: Json) => ({
  200: { description, content: { 'application/json': { schema } } },
});

const RECEIVED = {
  type: 'object',
  required: ['received'],
  properties: { received: { type: 'boolean', enum: [true] }, duplicate: { type: 'boolean' } },
};
/** A provider's delivery acknowledged (the payment webhooks). */
export const received = (description: string) => ok(description, RECEIVED);

/** An audio recording passed through from the voice platform, whole or the Range asked for. */
export const RECORDING: Record<string, Json> = {
  200: file('The recording (Range passes through to the platform).', 'audio/mpeg'),
  206: file('The part of the recording the Range asked for.', 'audio/mpeg'),
};
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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

/** Fastify's `/:id` as OpenAPI's `/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** Who may call an operation, as its path's prefix says (the composition root knows the guards). */
export interface OperationAccess {
  security: Security;
  signedIn: boolean;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** The statuses an operation answers because of what it is (see the top of this file). */
function derivedErrors(method: string, path: string, op: Json, signedIn: boolean): number[] {
  // The generated OpenAPI is untyped JSON; parameters are objects with `in`
  const params = (op.parameters as { in: string }[] | undefined) ?? [];
  const statuses: number[] = [];
  const write = WRITES.has(method);
  if (params.length > 0 || op.requestBody || write) statuses.push(400);
  if (op.requestBody || write) statuses.push(413, 415);
  if (signedIn) statuses.push(401);
  // A signed-in path: a role without the route's permission (access/permissions.ts), or two-factor
  // sign-in required and not set up (auth/two-factor-requirement.ts).
  if (signedIn || (write && !path.startsWith('/api/webhooks/'))) statuses.push(403);
  if (params.some((p) => p.in === 'path')) statuses.push(404);
  return statuses;
}

/**
 * Adds what the routes' schemas leave to rules: derived errors, security, ids, the extensions of
 * apiDoc folded in. `accessOf` takes `METHOD /openapi/{path}`.
 */
export function completeDescription(openapi: Json, accessOf: (key: string) => OperationAccess): Json {
  const used = new Set<number>();
  // The generated OpenAPI is untyped JSON; `paths` maps path to method to operation
  const paths = openapi.paths as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const access = accessOf(key);
      // The extensions are what apiDoc wrote (typed there); in the generated document they are plain JSON.
      const errors = (op['x-errors'] as number[] | undefined) ?? [];
      const extraResponses = op['x-responses'] as Record<string, Json> | undefined;
      const rawBody = op['x-raw-body'] as Json | undefined;
      delete op['x-errors'];
      delete op['x-responses'];
      delete op['x-raw-body'];
      op.operationId ??= operationIdOf(method, path);
      // A route without a summary shows its key: api-docs.test.ts names it.
      op.summary ??= key;
      op.security ??= access.security;
      if (rawBody) op.requestBody = rawBody;
      // The generated OpenAPI is untyped JSON; parameters is an array of objects
      for (const parameter of (op.parameters as Json[] | undefined) ?? []) describeParameter(parameter);

      // The generated OpenAPI is untyped JSON; responses maps status to object
      const responses = { ...(op.responses as Record<string, Json>) };
      if (extraResponses) {
        // A redirect or download replaces the generated (empty) 200.
        if (!('200' in extraResponses) && !('201' in extraResponses)) delete responses['200'];
        Object.assign(responses, extraResponses);
      }
      for (const [status, response] of Object.entries(responses))
        if (response.description === 'Default Response') response.description = describeStatus(status);
      for (const status of [...derivedErrors(method, path, op, access.signedIn), ...errors]) {
        if (String(status) in responses) continue; // the route's own schema for it wins
        responses[status] = errorRef(status);
        used.add(status);
      }
      responses['5XX'] = { $ref: `#/components/responses/${SERVER_ERROR.name}` };
      op.responses = sortedByStatus(responses);
    }
  }

  // The generated OpenAPI is untyped JSON; components is an object when present
  const components = (openapi.components ?? {}) as Json;
  // The generated OpenAPI is untyped JSON; schemas is an object when present
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
  // The generated OpenAPI is untyped JSON; a parameter's schema is an object
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
