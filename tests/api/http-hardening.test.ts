/**
 * What reaches the server before any route does: answers Fastify or Node's parser give on their own,
 * slow bodies, deep JSON, and the headers every answer must carry. Real sockets where inject cannot
 * show it (Node's parser, timeouts).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the socket closing. */
  closedAfter: number;
}

/** Sends `chunks` over a plain socket, `gapMs` apart, and reads until the server closes. */
function rawRequest(port: number, chunks: string[], gapMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (data) => {
      received += data.toString('utf8');
    });
    socket.on('error', () => {}); // a reset is a close, judged below
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body,
        closedAfter: Date.now() - started,
      });
    });
    let next = 0;
    const sendNext = () => {
      if (next >= chunks.length || socket.destroyed) return;
      socket.write(chunks[next++]);
      timer = setTimeout(sendNext, gapMs);
    };
    socket.on('connect', sendNext);
    setTimeout(() => reject(new Error('socket still open after 30 s')), 30_000).unref();
  });
}

const expectSecurityHeaders = (headers: Record<string, string>) => {
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['x-content-type-options']).toBe('nosniff');
};

describe(`HTTP hardening (${TEST_DB})`, () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        HTTP_REQUEST_TIMEOUT_MS: '2000',
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('cuts a body that trickles in one byte at a time', async () => {
    const answer = await rawRequest(
      port,
      [
        'POST /api/client/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
        ...Array.from({ length: 40 }, () => ' '),
      ],
      1_000,
    );
    // Cut at the 2 s deadline (plus Node's check interval), long before the 40 s the body would take.
    expect(answer.closedAfter).toBeLessThan(8_000);
    if (answer.status) {
      expect(answer.status).toBe(408);
      expectSecurityHeaders(answer.headers);
    }
  });

  it('answers an undecodable URL, an over-long parameter and huge headers in its own words, with its headers', async () => {
    const badUrl = await rawRequest(port, [
      'GET /%c0%ae%c0%ae/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ]);
    const longParam = await rawRequest(port, [
      `GET /api/admin/client-config/${'a'.repeat(150)}<script> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ]);
    const hugeHeaders = await rawRequest(port, [
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    ]);
    expect([badUrl.status, longParam.status, hugeHeaders.status]).toEqual([400, 414, 431]);
    for (const answer of [badUrl, longParam, hugeHeaders]) {
      expectSecurityHeaders(answer.headers);
      const body = JSON.parse(answer.body);
      expect(Object.keys(body)).toEqual(['message']);
      expect(answer.body).not.toMatch(/fastify|FST_|script|%c0|aaaa/i);
    }
  });

  it('cuts a header section that trickles in one byte at a time', async () => {
    const answer = await rawRequest(
      port,
      ['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ', ...Array.from({ length: 40 }, () => 'a')],
      500,
    );
    // Cut at the 2 s header deadline, long before the 20 s the headers would take.
    expect(answer.closedAfter).toBeLessThan(8_000);
    if (answer.status) {
      expect(answer.status).toBe(408);
      expectSecurityHeaders(answer.headers);
      expect(JSON.parse(answer.body)).toEqual({ message: 'The request took too long to arrive' });
    }
  });

  it('closes a kept-alive connection once it has been idle for the keep-alive timeout', async () => {
    const answer = await rawRequest(port, [
      'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n',
    ]);
    expect(answer.status).toBe(200);
    // 1 s configured here; without it Fastify keeps an idle socket 72 s.
    expect(answer.closedAfter).toBeLessThan(8_000);
  });

  it('answers unknown paths and methods with 404 in its own words and headers, echoing nothing', async () => {
    const answers = [
      await rawRequest(port, [
        'GET /api/<script>alert(1)</script> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ]),
      await rawRequest(port, [
        'DELETE /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      ]),
      await rawRequest(port, [
        'PATCH /api/client/%3Cscript%3E HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      ]),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expectSecurityHeaders(answer.headers);
      expect(JSON.parse(answer.body)).toEqual({ message: 'Not found' });
    }
    expect(answers[2].headers['cache-control']).toBe('no-store');
  });

  it('refuses JSON nested too deeply with 400, and the next valid request is served', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${deep}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is nested too deeply (more than 64 levels)' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/client/login',
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('marks signed-in answers no-store, errors included, and leaves public pages alone', async () => {
    const client = await createClient(t.deps, { email: 'cache@example.com' });
    const cookie = await loginClient(t.app, client.email);
    const stats = await t.app.inject({ method: 'GET', url: '/api/client/stats', headers: { cookie } });
    expect(stats.statusCode).toBe(200);
    expect(stats.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/clients' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const demo = await t.app.inject({ method: 'GET', url: '/api/demo/stats' });
    expect(demo.headers['cache-control']).toBeUndefined();
  });

  it('judges a request by the route it reaches, however its path is spelled', async () => {
    const client = await createClient(t.deps, { email: 'spelled@example.com' });
    const cookie = await loginClient(t.app, client.email);
    // Percent-encoded letters reach the same routes as the plain path.
    const stats = await t.app.inject({ method: 'GET', url: '/api/%63lient/stats', headers: { cookie } });
    expect(stats.statusCode).toBe(200);
    expect(stats.headers['cache-control']).toBe('no-store');
    for (const url of ['/%61pi/client/logout', '/api/%63lient/logout']) {
      const crossSite = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(crossSite.statusCode, url).toBe(403);
      expect(crossSite.json()).toEqual({ message: 'Cross-origin request refused' });
    }
    const stillSignedIn = await t.app.inject({
      method: 'GET',
      url: '/api/client/stats',
      headers: { cookie },
    });
    expect(stillSignedIn.statusCode).toBe(200);
  });

  it('sends Strict-Transport-Security only when PUBLIC_URL is https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://calls.example.com' } });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await secure.close();
    }
  });

  it('answers a request that arrives while the server shuts down with 503 in its own words and headers', async () => {
    const closing = await createTestApp();
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const closingPort = (closing.app.server.address() as { port: number }).port;
    const socket = connect(closingPort, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('utf8');
    });
    socket.on('error', () => {});
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    // A request still arriving keeps the connection busy, so shutting down leaves it open...
    const started = new Promise((resolve) => closing.app.server.once('request', resolve));
    socket.write(
      'POST /api/client/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
    );
    await started;
    const closed = closing.close();
    while (closing.app.server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
    // ...and the next request on it arrives during the shutdown.
    socket.write('{}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await ended;
    await closed;
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    const [head, body] = second.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 503/);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(head.toLowerCase()).toContain("content-security-policy: default-src 'self'");
    expect(JSON.parse(body)).toEqual({ message: 'This server is restarting. Try again in a moment.' });
  });
});
