/**
 * The API described as OpenAPI 3 at /api/openapi.json, Swagger UI at /api/docs: generated from the
 * routes themselves, each with its Zod schemas (src/contract through http/route-schemas.ts) and
 * its summary, tags and extra statuses in its own `schema` (http/route-docs.ts says how). This
 * file assembles the document: its title, tags and security schemes, and who is signed in where
 * (auth/guards.ts's route table), so the rules of http/route-docs.ts can complete each operation.
 * Registered before the routes, since @fastify/swagger collects them as they are added.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Access } from './auth/guards';
import { COOKIE_NAMES } from './auth/sessions';
import {
  ADMIN_SESSION,
  CLIENT_SESSION,
  completeDescription,
  type OperationAccess,
  openApiPath,
  type Security,
} from './http/route-docs';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

type Json = Record<string, unknown>;

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
      // A route names one of these in its schema's `tags`.
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
    transform: jsonSchemaTransform,
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const accessOf = new Map(app.routeTable.map((r) => [`${r.method} ${openApiPath(r.url)}`, r.access]));
      const operationAccess = (key: string): OperationAccess => {
        const access = accessOf.get(key) ?? 'public';
        return { security: SECURITY_OF[access], signedIn: access !== 'public' };
      };
      // The document goes in and comes out as plain JSON; @fastify/swagger's type is the same object.
      return completeDescription(
        document.openapiObject as Json,
        operationAccess,
      ) as typeof document.openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { url: OPENAPI_PATH } });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
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

/** What the guards' access of a path (auth/guards.ts) means as OpenAPI security. */
const SECURITY_OF: Record<Access, Security> = {
  client: CLIENT_SESSION,
  admin: ADMIN_SESSION,
  client_or_admin: [...CLIENT_SESSION, ...ADMIN_SESSION],
  public: [],
};
