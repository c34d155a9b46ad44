/**
 * A proxy in front of a stand-in that keeps every exchange: what our adapter sent and what the
 * stand-in answered, byte for byte. The contract tests validate both against the providers'
 * published specifications (specs/), so neither side can drift unnoticed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  requestType: string | null;
  requestBody: string;
  status: number;
  responseType: string | null;
  responseBody: string;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

const read = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server: Server = createServer(async (req, res) => {
    const requestBody = await read(req);
    const url = new URL(req.url ?? '/', target);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    }
    const answer = await fetch(url, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : requestBody,
    });
    const responseBody = await answer.text();
    exchanges.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      requestType: req.headers['content-type'] ?? null,
      requestBody,
      status: answer.status,
      responseType: answer.headers.get('content-type'),
      responseBody,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding')
        out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(responseBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
