/**
 * The graceful stop, on SIGTERM or SIGINT, in this order:
 *   1. not ready: /readyz answers 503 from now on; after SHUTDOWN_DELAY_MS (for load balancers
 *      whose health checks need to notice) the server
 *   2. stops its background jobs: the outbox claims nothing new, no backup starts;
 *   3. closes the app: live streams get `end` ("restarting") and close, no new connections are
 *      taken, a request on a kept-alive connection gets 503 with `Connection: close` (nothing
 *      done, safe to retry elsewhere), requests in flight (a provider's delivery waiting for its
 *      group commit) finish and are answered; syncs stop as interrupted;
 *      meanwhile the outbox's sends in flight finish and are recorded, so none is left leased to
 *      be sent again by another instance;
 *   4. closes the database and exits 0.
 * Steps 3's waits are bounded by SHUTDOWN_TIMEOUT_MS: past it the process says what it left and
 * exits 1 (a delivery not answered is retried by its provider; a lease left is taken over).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from '../http/lifecycle';

export interface StopParts {
  app: FastifyInstance;
  lifecycle: Lifecycle;
  delayMs: number;
  timeoutMs: number;
  /** Stops the background jobs (no new work claimed). */
  stopJobs(): void;
  /** Resolves when the outbox's sends in flight have ended. */
  settleOutbox(): Promise<number>;
  /** After everything: the mailer, the metrics listener, the database. */
  closeRest(): Promise<void>;
  log: { info(obj: object | string, msg?: string): void; warn(obj: object, msg: string): void };
  exit?: (code: number) => void;
}

export function gracefulStop(parts: StopParts): (signal: string) => Promise<void> {
  let stopping: Promise<void> | null = null;
  return (signal) => {
    stopping ??= run(parts, signal);
    return stopping;
  };
}

async function run(parts: StopParts, signal: string): Promise<void> {
  const { app, log } = parts;
  const exit = parts.exit ?? ((code: number) => process.exit(code));
  const started = performance.now();
  parts.lifecycle.markStopping();
  log.info(
    `stopping (${signal}): not ready any more${parts.delayMs > 0 ? `, serving ${parts.delayMs} ms more` : ''}, then draining`,
  );
  if (parts.delayMs > 0) await sleep(parts.delayMs);
  parts.stopJobs();
  let sends = 0;
  const drained = Promise.all([
    app.close(),
    parts.settleOutbox().then((n) => {
      sends = n;
    }),
  ]).then(() => true);
  const deadline = new AbortController();
  const timedOut = sleep(parts.timeoutMs, false, { signal: deadline.signal, ref: false }).catch(() => false);
  const complete = await Promise.race([drained, timedOut]).catch((error: unknown) => {
    log.warn({ err: error }, 'stopping: closing failed');
    return false;
  });
  deadline.abort();
  if (!complete)
    log.warn(
      { timeoutMs: parts.timeoutMs },
      'stopping: SHUTDOWN_TIMEOUT_MS passed with requests or sends still in flight; exiting without them',
    );
  await parts
    .closeRest()
    .catch((error: unknown) => log.warn({ err: error }, 'stopping: closing the database failed'));
  log.info(
    `stopped in ${Math.round(performance.now() - started)} ms${sends > 0 ? ` (${sends} outbox sends finished first)` : ''}`,
  );
  exit(complete ? 0 : 1);
}
