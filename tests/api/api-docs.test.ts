/**
 * The OpenAPI description is generated from the routes themselves: every route is in it, with its
 * schemas, its errors, its security, an id and a summary; Redocly's recommended rules pass; and
 * the check every API test runs (helpers/api-description-check.ts) refuses what it does not list.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_RANGES } from '../../src/contract/common';
import { COOKIE_NAMES } from '../../src/server/auth/sessions';
import { openApiPath } from '../../src/server/http/route-docs';
import { answerProblem, type Description } from '../helpers/api-description-check';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; schema?: { enum?: string[] } }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
  tags?: string[];
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
};

describe(`API description (${TEST_DB})`, () => {
  let t: TestApp;
  let doc: OpenApi;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
    );
  const op = (key: string) => {
    const [method, p] = key.split(' ');
    return doc.paths[p]?.[method.toLowerCase()];
  };

  beforeAll(async () => {
    // A public address Redocly accepts (it warns about localhost).
    t = await createTestApp({ env: { PUBLIC_URL: 'https://calls.agency.test' } });
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

  it('gives every operation a unique operationId, a tag, a summary of its own and its security', () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.filter(({ op }) => !op.tags?.length).map(({ key }) => key)).toEqual([]);
    expect(all.filter(({ op }) => !Array.isArray(op.security)).map(({ key }) => key)).toEqual([]);
    // A summary in each route's own schema (src/server/http/route-docs.ts): without one it shows its key.
    const keys = new Set(all.map(({ key }) => key));
    const withoutSummary = [...keys].filter((key) => op(key)?.summary === key);
    expect(withoutSummary, 'give the route a schema.summary (src/server/http/route-docs.ts)').toEqual([]);
    expect(op('GET /api/client/calls/{id}')?.operationId).toBe('getClientCallsById');
  });

  it('describes the session cookies as security schemes and requires them by path', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.clientSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: COOKIE_NAMES.client });
    expect(schemes.adminSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: COOKIE_NAMES.admin });
    expect(schemes.webhookBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(op('GET /api/client/calls')?.security).toEqual([{ clientSession: [] }]);
    expect(op('GET /api/admin/clients')?.security).toEqual([{ adminSession: [] }]);
    expect(op('POST /api/client/login')?.security).toEqual([]);
    expect(op('POST /api/webhooks/voice/{token}')?.security).toContainEqual({ webhookBearer: [] });
  });

  it('lists the errors each operation answers, all with the one error body', () => {
    const error = { $ref: '#/components/schemas/Error' };
    for (const response of Object.values(doc.components.responses))
      expect(response.content?.['application/json']?.schema).toEqual(error);
    expect(doc.components.schemas.Error).toMatchObject({
      required: ['message'],
      properties: { message: { type: 'string' }, fields: { type: 'object' } },
    });
    const statuses = (key: string) => Object.keys(op(key)?.responses ?? {});
    // Input → 400; a client path → 401; an admin path → 401 and 403; a path parameter → 404.
    expect(statuses('GET /api/client/calls')).toEqual(expect.arrayContaining(['200', '400', '401', '5XX']));
    expect(statuses('GET /api/admin/client-calls/{clientId}/{id}')).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    // Declared per route: a conflict, a rate limit, partial content.
    expect(statuses('PUT /api/client/account')).toContain('409');
    expect(statuses('POST /api/client/login')).toEqual(expect.arrayContaining(['401', '429']));
    expect(statuses('GET /api/demo/recording/{id}')).toEqual(expect.arrayContaining(['200', '206', '404']));
    // Every operation that takes input can refuse it, and every signed-in one can ask to sign in.
    const missing = operations().flatMap(({ key, op }) => {
      const listed = Object.keys(op.responses ?? {});
      const takesInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
      return [
        ...(takesInput && !listed.includes('400') ? [`${key} 400`] : []),
        ...(/ \/api\/(client|admin)\//.test(key) && !/\/(login|logout)$/.test(key) && !listed.includes('401')
          ? [`${key} 401`]
          : []),
        ...(listed.includes('5XX') ? [] : [`${key} 5XX`]),
      ];
    });
    expect(missing).toEqual([]);
  });

  it('documents redirects as redirects, the webhook bodies and the date ranges', () => {
    expect(Object.keys(op('GET /api/login')?.responses ?? {})).toEqual(['302', '5XX']);
    expect(op('GET /api/billing/paypal/return')?.responses?.['303']?.headers).toHaveProperty('Location');
    expect(op('GET /api/billing/paypal/cancel')?.responses).toHaveProperty('303');
    const voice = JSON.stringify(op('POST /api/webhooks/voice/{token}')?.requestBody);
    for (const field of ['call_id', 'end-of-call-report', 'call_ended']) expect(voice).toContain(field);
    for (const key of ['POST /api/webhooks/stripe', 'POST /api/webhooks/paypal'])
      expect(op(key)?.requestBody?.content?.['application/json']?.schema, key).toBeDefined();
    // Every success other than a redirect says what it answers.
    const silent = operations().flatMap(({ key, op }) =>
      Object.entries(op.responses ?? {})
        .filter(([status, response]) => status.startsWith('2') && !('content' in response))
        .map(([status]) => `${key} ${status}`),
    );
    expect(silent).toEqual([]);
    const stats = op('GET /api/client/stats')?.parameters?.find((p) => p.name === 'dateRange');
    expect(stats?.schema?.enum).toEqual([...DATE_RANGES]);
    const untyped = operations().flatMap(({ key, op }) =>
      (op.parameters ?? []).filter((p) => p.name === 'dateRange' && !p.schema?.enum).map(() => key),
    );
    expect(untyped).toEqual([]);
  });

  it("passes Redocly's recommended rules without errors", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
      const run = spawnSync(
        process.execPath,
        [cli, 'lint', file, '--config', path.resolve('redocly.yaml'), '--format', 'json'],
        {
          encoding: 'utf8',
          timeout: 60_000,
          // Never the network: no telemetry, no update check.
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const report = JSON.parse(run.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
      };
      const errors = report.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an answer whose status or body the description does not list', () => {
    const self = doc as unknown as Description;
    const answer = {
      method: 'get',
      path: '/api/client/calls/{id}',
      contentType: 'application/json; charset=utf-8',
    };
    expect(
      answerProblem(self, { ...answer, status: 404, payload: '{"message":"Call not found"}' }),
    ).toBeNull();
    expect(answerProblem(self, { ...answer, status: 409, payload: '{"message":"Busy"}' })).toContain(
      'does not list',
    );
    expect(answerProblem(self, { ...answer, status: 404, payload: '{"error":"Not Found"}' })).toContain(
      'does not match',
    );
    expect(
      answerProblem(self, { ...answer, status: 400, payload: '{"message":"x","fields":{"id":"Required"}}' }),
    ).toBeNull();
    expect(
      answerProblem(self, {
        method: 'get',
        path: '/api/client/calls/export',
        status: 200,
        contentType: 'application/json',
        payload: '{}',
      }),
    ).toContain('documented text/csv');
  });

  it('serves the interactive documentation page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
