/**
 * METRICS_PORT: /metrics on a listener of its own, bound to 127.0.0.1, for a
 * Prometheus on the same machine (or a sidecar): no token, as nothing off the machine reaches it.
 * Plain node:http: it serves one path and must keep answering while the main app is busy.
 */
import { createServer, type Server } from 'node:http';
import type { Metrics } from '../http/metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  log: { warn(obj: object, msg: string): void },
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Only GET /metrics here\n');
      return;
    }
    metrics.render().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' })
          .end(text),
      (error: unknown) => {
        log.warn({ err: error }, 'metrics could not be read');
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Metrics could not be read\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
