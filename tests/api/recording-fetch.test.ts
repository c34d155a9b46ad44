/**
 * Recording URLs a voice platform hands out are fetched through the client webhooks' address
 * checks, as bootstrap.ts wires them: only the configured platform API URL's origin is trusted
 * as it is; any other address in private space (127.0.0.2, a name resolving to loopback) is
 * refused, and so is a redirect into it (each hop checked); an answer that is not audio (a web
 * page) is refused rather than passed on; Range keeps working. No database is involved.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressGuard } from '../../src/server/notifications/safe-http';
import {
  createProviderHttp,
  MEDIA_NOT_AUDIO_MESSAGE,
  MEDIA_REFUSED_MESSAGE,
} from '../../src/server/providers/voice/provider-http';
import { TEST_DB } from '../helpers/test-app';

const AUDIO = Buffer.alloc(4000, 7);

describe(`recording fetches and their addresses (${TEST_DB})`, () => {
  let server: Server;
  let port: number;
  const fetched: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      fetched.push(`${req.headers.host}${req.url}`);
      if (req.url === '/page')
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<script>1</script>');
      if (req.url === '/to-private')
        return res.writeHead(302, { location: `http://127.0.0.2:${port}/audio` }).end();
      if (req.url === '/to-audio') return res.writeHead(302, { location: '/audio' }).end();
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      if (range) {
        const [start, end] = [Number(range[1]), Number(range[2])];
        return res
          .writeHead(206, {
            'content-type': 'audio/mpeg',
            'content-range': `bytes ${start}-${end}/${AUDIO.length}`,
          })
          .end(AUDIO.subarray(start, end + 1));
      }
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(AUDIO.length) }).end(AUDIO);
    });
    // Every loopback address reaches it: 127.0.0.2 is as reachable as the platform's own.
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A platform's HTTP client as bootstrap.ts builds it, its API URL at 127.0.0.1. */
  const platform = () =>
    createProviderHttp(
      {
        baseUrl: `http://127.0.0.1:${port}/api`,
        maxRetries: 0,
        media: { ...createAddressGuard({ allowPrivate: false }), trustedOrigins: [] },
      },
      () => ({}),
    );
  const read = async (body: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  };

  it('streams audio from the platform’s own origin, with Range and a redirect within it', async () => {
    const http = platform();
    const whole = await http.streamUrl(`http://127.0.0.1:${port}/to-audio`);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect((await read(whole.body)).length).toBe(AUDIO.length);
    const part = await http.streamUrl(`http://127.0.0.1:${port}/audio`, 'bytes=10-19');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${AUDIO.length}`);
    expect((await read(part.body)).length).toBe(10);
  });

  it('refuses an answer that is not audio instead of passing a web page on', async () => {
    await expect(platform().streamUrl(`http://127.0.0.1:${port}/page`)).rejects.toThrow(
      MEDIA_NOT_AUDIO_MESSAGE,
    );
  });

  it('refuses private addresses, names resolving to them, and redirects into them, fetching nothing there', async () => {
    const http = platform();
    fetched.length = 0;
    await expect(http.streamUrl(`http://127.0.0.2:${port}/audio`)).rejects.toThrow(MEDIA_REFUSED_MESSAGE);
    await expect(http.streamUrl(`http://localhost:${port}/audio`)).rejects.toThrow(MEDIA_REFUSED_MESSAGE);
    await expect(http.streamUrl(`http://[::ffff:127.0.0.2]:${port}/audio`)).rejects.toThrow(
      MEDIA_REFUSED_MESSAGE,
    );
    await expect(http.streamUrl(`http://127.0.0.1:${port}/to-private`)).rejects.toThrow(
      MEDIA_REFUSED_MESSAGE,
    );
    // Only the trusted origin's redirect answered; nothing in private space was asked.
    expect(fetched).toEqual([`127.0.0.1:${port}/to-private`]);
  });

  it('refuses every other origin when no address checks were handed in (fails closed)', async () => {
    const bare = createProviderHttp({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 }, () => ({}));
    await expect(bare.streamUrl(`http://127.0.0.2:${port}/audio`)).rejects.toThrow(MEDIA_REFUSED_MESSAGE);
    expect((await bare.streamUrl(`http://127.0.0.1:${port}/audio`)).status).toBe(200);
  });
});
