/**
 * The API described as OpenAPI 3, generated from the same Zod schemas the routes validate with
 * (src/contract through route-schemas.ts): the document at /api/openapi.json, Swagger UI at
 * /api/docs. Registered before the routes, since @fastify/swagger collects them as they are added.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Call Analytics & Management Platform API',
        description:
          'Client endpoints (`/api/client/*`) need the client session cookie, admin endpoints ' +
          '(`/api/admin/*`) the admin session cookie; both come from the login endpoints. Errors ' +
          'answer `{message}` (400s add `fields`, the first message per input field). Updates are ' +
          'patches: a body field left out keeps its stored value, never a default. An unknown query ' +
          'value is a 400 naming the parameter.',
        version: '1.0.0',
      },
      tags: [
        { name: 'auth', description: 'Sign in and out' },
        { name: 'client', description: 'The signed-in client: calls, account, billing' },
        { name: 'admin', description: 'Administrators: clients, onboarding, sync' },
        { name: 'public', description: 'Demo, recordings, provider webhooks, health' },
      ],
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const tags = [tagOf(input.url)];
      return { ...transformed, schema: { tags, ...transformed.schema } };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { url: OPENAPI_PATH } });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

function tagOf(url: string): string {
  if (/\/(login|logout|session)$/.test(url)) return 'auth';
  if (url.startsWith('/api/client/')) return 'client';
  if (url.startsWith('/api/admin/')) return 'admin';
  return 'public';
}
