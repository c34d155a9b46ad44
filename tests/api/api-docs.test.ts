/** The OpenAPI description is generated from the routes themselves: every route is in it, with its schemas. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, type TestApp, createTestApp } from '../helpers/test-app';

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  tags?: string[];
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Fastify's `/:id` as OpenAPI's `/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe(`API description (${TEST_DB})`, () => {
  let t: TestApp;
  let doc: OpenApi;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists every API route of the route table under its method', () => {
    const apiRoutes = t.app.routeTable.filter(
      ({ url }) => url.startsWith('/api/') && !url.startsWith('/api/docs') && url !== '/api/openapi.json',
    );
    expect(apiRoutes.length).toBeGreaterThan(50);
    const missing = apiRoutes.filter(
      ({ method, url }) => !doc.paths[openApiPath(url)]?.[method.toLowerCase()],
    );
    expect(missing).toEqual([]);
  });

  it('describes the path parameters of every route that has them', () => {
    const withParams = t.app.routeTable.filter(({ url }) => url.startsWith('/api/') && url.includes(':'));
    expect(withParams.length).toBeGreaterThan(10);
    const undescribed = withParams
      .filter(({ method, url }) => {
        const names = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
        const params = doc.paths[openApiPath(url)]?.[method.toLowerCase()]?.parameters ?? [];
        return !names.every((name) => params.some((p) => p.in === 'path' && p.name === name));
      })
      .map(({ method, url }) => `${method} ${url}`);
    expect(undescribed).toEqual([]);
  });

  it('describes the bodies of sign-in, account, onboarding and configuration writes', () => {
    for (const [method, path] of [
      ['post', '/api/client/login'],
      ['post', '/api/admin/login'],
      ['post', '/api/client/change-password'],
      ['put', '/api/client/api-key'],
      ['put', '/api/client/webhook-signing-secret'],
      ['post', '/api/admin/generate-webhook'],
      ['put', '/api/admin/client-config/{id}'],
    ]) {
      expect(doc.paths[path]?.[method]?.requestBody, `${method} ${path}`).toBeDefined();
    }
  });

  it('describes parameters, bodies and answers from the route schemas', () => {
    const update = doc.paths['/api/client/account']?.put;
    expect(update?.requestBody).toBeDefined();
    expect(update?.tags).toEqual(['client']);
    const stats = doc.paths['/api/admin/client-stats/{clientId}']?.get;
    expect(stats?.parameters?.some((p) => p.in === 'path' && p.name === 'clientId')).toBe(true);
    expect(stats?.tags).toEqual(['admin']);
    const calls = doc.paths['/api/client/calls']?.get;
    expect(calls?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'limit']));
    expect(calls?.responses?.['200']).toBeDefined();
    const webhook = doc.paths['/api/webhooks/voice/{token}']?.post;
    expect(webhook?.parameters?.some((p) => p.in === 'path' && p.name === 'token')).toBe(true);
    expect(JSON.stringify(webhook?.responses?.['200'])).toContain('verified');
    const recording = doc.paths['/api/admin/client-recording/{clientId}/{id}']?.get;
    expect(recording?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['clientId', 'id']));
  });

  it('serves the interactive documentation page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
