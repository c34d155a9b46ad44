/**
 * Outgoing requests to client-set URLs: the connection goes to the address that was
 * checked, never to one a second DNS answer names; refused addresses in every literal form.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeHttp, isRefusedAddress, RefusedTargetError, type Resolve } from './safe-http';

describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '169.254.169.254',
    '172.16.5.4',
    '192.168.0.10',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', '::ffff:8.8.8.8'])(
    'lets %s through',
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );

  it("refuses the host's own addresses", () => {
    expect(isRefusedAddress('93.184.216.34', new Set(['93.184.216.34']))).toBe(true);
  });
});

describe('createSafeHttp', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A name that answers a public address, then loopback, then public… (DNS rebinding). */
  function flipping(): Resolve {
    let n = 0;
    return async () => [
      n++ % 2 === 0 ? { address: '93.184.216.34', family: 4 } : { address: '127.0.0.1', family: 4 },
    ];
  }

  it('never connects to loopback when a name flips between a public address and 127.0.0.1', async () => {
    const http = createSafeHttp({ allowPrivate: false, resolve: flipping(), ownAddresses: () => [] });
    const url = `http://rebind.example.test:${port}/hook`;
    const before = connections;
    for (let i = 0; i < 20; i++) {
      // The save-time check sees the public answer; the connection's own lookup sees loopback.
      expect(await http.check(url)).toBe(true);
      await expect(http.post(url, { headers: {}, body: '{}' })).rejects.toBeInstanceOf(RefusedTargetError);
    }
    expect(connections).toBe(before);
  });

  it('connects to exactly the address its lookup checked, not to what the system resolver says', async () => {
    // Loopback allowed (tests, development): the same agent, the injected answer is used.
    const http = createSafeHttp({
      allowPrivate: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const before = connections;
    const res = await http.post(`http://hooks.example.test:${port}/hook`, { headers: {}, body: '{}' });
    expect(res.status).toBe(204);
    expect(connections).toBe(before + 1);
  });

  it('refuses a name with any private answer among public ones', async () => {
    const http = createSafeHttp({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      ownAddresses: () => [],
    });
    expect(await http.check(`http://mixed.example.test:${port}/`)).toBe(false);
    await expect(
      http.post(`http://mixed.example.test:${port}/`, { headers: {}, body: '{}' }),
    ).rejects.toBeInstanceOf(RefusedTargetError);
  });

  it.each([
    'http://127.0.0.1:PORT/hook',
    'http://[::1]:PORT/hook',
    'http://[::ffff:127.0.0.1]:PORT/hook',
    'http://[::127.0.0.1]:PORT/hook',
    'http://[64:ff9b::7f00:1]:PORT/hook',
    'http://0x7f000001:PORT/hook',
    'http://2130706433:PORT/hook',
    'http://localhost:PORT/hook',
  ])('refuses the literal form %s without connecting', async (form) => {
    const http = createSafeHttp({ allowPrivate: false });
    const url = form.replace('PORT', String(port));
    const before = connections;
    expect(await http.check(url)).toBe(false);
    await expect(http.post(url, { headers: {}, body: '{}' })).rejects.toBeInstanceOf(RefusedTargetError);
    expect(connections).toBe(before);
  });

  it('gives up on a server that accepts and never answers after the response timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const http = createSafeHttp({ allowPrivate: true, responseTimeoutMs: 300 });
    const started = performance.now();
    await expect(
      http.post(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, { headers: {}, body: '{}' }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(5_000);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
