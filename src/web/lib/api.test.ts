import type { QueryFunctionContext } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiJson,
  apiRequest,
  getJson,
  getQueryFn,
  isUnauthorizedError,
  serverMessageOf,
  urlForQueryKey,
} from './api';

function stubFetch(status: number, body: string, statusText = '') {
  const fetchMock = vi.fn(async () => new Response(body || null, { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function queryContext(queryKey: readonly unknown[]) {
  return {
    queryKey,
    signal: new AbortController().signal,
    meta: undefined,
  } as unknown as QueryFunctionContext;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends credentials, and JSON with its content type only when there is a body', async () => {
    const fetchMock = stubFetch(200, '{"success":true}');
    await apiRequest('POST', '/api/client/login', { email: 'a@b.c', password: 'pw' });
    expect(fetchMock).toHaveBeenLastCalledWith('/api/client/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":"a@b.c","password":"pw"}',
      credentials: 'include',
    });

    await apiRequest('POST', '/api/client/logout');
    expect(fetchMock).toHaveBeenLastCalledWith('/api/client/logout', {
      method: 'POST',
      headers: {},
      body: undefined,
      credentials: 'include',
    });
  });

  it('turns a non-ok answer into "status: body text", keeping the server message', async () => {
    stubFetch(401, '{"message":"Invalid email or password"}', 'Unauthorized');
    const error = await apiRequest('POST', '/api/client/login', { email: 'x', password: 'y' }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('401: {"message":"Invalid email or password"}');
    expect(error.status).toBe(401);
    expect(error.serverMessage).toBe('Invalid email or password');
    expect(serverMessageOf(error, 'fallback')).toBe('Invalid email or password');
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch(503, '', 'Service Unavailable');
    const error = await apiRequest('GET', '/api/x').catch((e) => e);
    expect(error.message).toBe('503: Service Unavailable');
    expect(error.serverMessage).toBeUndefined();
    expect(serverMessageOf(error, 'Failed to sync calls')).toBe('Failed to sync calls');
  });

  it('keeps a non-JSON body as it is, without a server message', async () => {
    stubFetch(502, '<html>Bad gateway</html>', 'Bad Gateway');
    const error = await apiRequest('GET', '/api/x').catch((e) => e);
    expect(error.message).toBe('502: <html>Bad gateway</html>');
    expect(error.serverMessage).toBeUndefined();
  });
});

describe('getJson and apiJson', () => {
  it('parse the JSON answer', async () => {
    stubFetch(200, '{"totalCalls":3}');
    await expect(getJson('/api/client/stats')).resolves.toEqual({ totalCalls: 3 });
  });

  it('yield undefined for an empty answer', async () => {
    stubFetch(204, '');
    await expect(apiJson('DELETE', '/api/client/calls/1')).resolves.toBeUndefined();
  });
});

describe('isUnauthorizedError', () => {
  it('recognises a 401 whose message says Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
  });

  it('rejects other errors', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Invalid email or password"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('403: {"message":"Unauthorized"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('x 401: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
    expect(isUnauthorizedError(undefined)).toBe(false);
  });
});

describe('getQueryFn', () => {
  it('returns null on 401 with returnNull', async () => {
    const fetchMock = stubFetch(401, '{"message":"Unauthorized"}', 'Unauthorized');
    const queryFn = getQueryFn({ on401: 'returnNull' });
    await expect(queryFn(queryContext(['/api/client/session']))).resolves.toBeNull();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/client/session',
      expect.objectContaining({ credentials: 'include' }),
    );
  });

  it('throws on 401 with throw', async () => {
    stubFetch(401, '{"message":"Unauthorized"}', 'Unauthorized');
    const queryFn = getQueryFn({ on401: 'throw' });
    const error = await Promise.resolve(queryFn(queryContext(['/api/client/calls']))).catch((e) => e);
    expect(isUnauthorizedError(error)).toBe(true);
  });

  it('can treat further statuses (403) as no data', async () => {
    stubFetch(403, '{"message":"Admin access required"}', 'Forbidden');
    const queryFn = getQueryFn({ on401: 'returnNull', alsoNullOn: [403] });
    await expect(queryFn(queryContext(['/api/admin/session']))).resolves.toBeNull();
  });

  it('still throws other failures with returnNull', async () => {
    stubFetch(500, '{"message":"Internal server error"}', 'Internal Server Error');
    const queryFn = getQueryFn({ on401: 'returnNull' });
    await expect(queryFn(queryContext(['/api/client/session']))).rejects.toThrow(
      '500: {"message":"Internal server error"}',
    );
  });

  it('parses the JSON answer', async () => {
    stubFetch(200, '{"email":"a@b.c"}');
    const queryFn = getQueryFn({ on401: 'returnNull' });
    await expect(queryFn(queryContext(['/api/client/session']))).resolves.toEqual({ email: 'a@b.c' });
  });
});

describe('urlForQueryKey', () => {
  it('uses the first part as the path and object parts as the query string', () => {
    expect(urlForQueryKey(['/api/client/stats'])).toBe('/api/client/stats');
    expect(urlForQueryKey(['/api/client/stats', { dateRange: '30d' }])).toBe(
      '/api/client/stats?dateRange=30d',
    );
    expect(urlForQueryKey(['/api/client/calls', { page: 2, pathway: 'all', search: '', x: undefined }])).toBe(
      '/api/client/calls?page=2&pathway=all',
    );
    expect(urlForQueryKey(['/api/x?a=1', { b: 'two words' }])).toBe('/api/x?a=1&b=two+words');
  });

  it('ignores parts that only separate cache entries', () => {
    expect(urlForQueryKey(['/api/admin/client-data/c1', '7d'])).toBe('/api/admin/client-data/c1');
  });

  it('refuses a key without a path', () => {
    expect(() => urlForQueryKey([{ a: 1 }])).toThrow();
  });
});
