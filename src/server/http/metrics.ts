/**
 * The server's Prometheus metrics: one registry per app (tests build many), the
 * counters and histograms features record into (`deps.metrics`), and gauges read when scraped
 * (`addCollector`: the outbox, open streams, the database pool). What each metric means, and the
 * alerts worth setting on them, is in docs/operations.md; docs/grafana/ reads them.
 *
 * Plumbing: imports no feature. Recording is a few additions in memory, never I/O; a gauge that
 * needs the database reads it when /metrics is asked, never on a timer.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const METRICS_PREFIX = 'callanalytics_';

/** What became of a provider delivery (the webhook route). */
export type DeliveryResult = 'accepted' | 'duplicate' | 'unconfirmed' | 'refused' | 'event' | 'rate_limited';

/** What one send of an outbox message came to. */
export type OutboxSendResult = 'sent' | 'retry' | 'failed' | 'cancelled';

export type SyncRunResult = 'succeeded' | 'failed' | 'interrupted';

export interface PoolUse {
  /** Connections open (busy and idle). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface Metrics {
  readonly registry: Registry;
  /** One answered HTTP request; `route` is the route's pattern, never the URL. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  delivery(provider: string, result: DeliveryResult): void;
  syncRun(result: SyncRunResult, seconds: number): void;
  outboxSend(channel: string, result: OutboxSendResult): void;
  /** A gauge (or any metric) whose value is read when scraped; `collect` sets it. */
  gauge(name: string, help: string, labelNames: string[], collect: (gauge: Gauge) => unknown): Gauge;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsOptions {
  /** The database pool's use now (PostgreSQL; SQLite has one connection). */
  poolUse?: () => PoolUse;
}

/** Seconds: an API answer takes milliseconds, an export or a sync-wait seconds. */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SYNC_BUCKETS = [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const http = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern and status, with how long each took to answer',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: `${METRICS_PREFIX}provider_deliveries_total`,
    help: 'Provider webhook deliveries by voice platform and result',
    labelNames: ['provider', 'result'],
    registers: [registry],
  });
  const syncRuns = new Histogram({
    name: `${METRICS_PREFIX}sync_run_duration_seconds`,
    help: 'Finished syncs with a provider by result, and how long each ran',
    labelNames: ['result'],
    buckets: SYNC_BUCKETS,
    registers: [registry],
  });
  const syncRunsTotal = new Counter({
    name: `${METRICS_PREFIX}sync_runs_total`,
    help: 'Finished syncs with a provider by result',
    labelNames: ['result'],
    registers: [registry],
  });
  const outboxSends = new Counter({
    name: `${METRICS_PREFIX}outbox_sends_total`,
    help: 'Outbox sends by channel and result (retry: failed for now, tried again later; failed: given up)',
    labelNames: ['channel', 'result'],
    registers: [registry],
  });
  if (options.poolUse) {
    const poolUse = options.poolUse;
    new Gauge({
      name: `${METRICS_PREFIX}db_pool_connections`,
      help: 'Database pool: connections by state (total open, idle, max), and queries waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const use = poolUse();
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
        this.set({ state: 'max' }, use.max);
      },
    });
  }

  // The process's own figures (CPU, memory, heap, GC, event-loop lag, handles), begun at the
  // first scrape: a test app that is never scraped starts no event-loop monitor.
  let defaults = false;

  return {
    registry,
    contentType: registry.contentType,
    httpRequest(method, route, status, seconds) {
      http.observe({ method, route, status: String(status) }, seconds);
    },
    delivery(provider, result) {
      deliveries.inc({ provider, result });
    },
    syncRun(result, seconds) {
      syncRuns.observe({ result }, seconds);
      syncRunsTotal.inc({ result });
    },
    outboxSend(channel, result) {
      outboxSends.inc({ channel, result });
    },
    gauge(name, help, labelNames, collect) {
      return new Gauge({
        name: `${METRICS_PREFIX}${name}`,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          await collect(this);
        },
      });
    },
    async render() {
      if (!defaults) {
        defaults = true;
        collectDefaultMetrics({ register: registry });
      }
      return registry.metrics();
    },
  };
}
