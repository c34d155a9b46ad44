/**
 * Entry point: config → database → app → listen → ready. Bad configuration stops here with one
 * line. The first lines it logs say where it listens and where its data is (the configuration in
 * full only at debug); SIGTERM and SIGINT stop it gracefully (operations/shutdown.ts).
 */
import './runtime-check';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { backgroundJobs } from './background-jobs';
import { createDeps } from './bootstrap';
import { ConfigError, describeConfig, loadConfig } from './config';
import { primeDemo } from './demo/demo-data';
import { loggerOptions } from './http/logging';
import { createNotifications } from './notifications';
import { type MetricsServer, startMetricsServer } from './operations/metrics-server';
import { gracefulStop } from './operations/shutdown';
import { ensureAdmin } from './seed';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main(): Promise<void> {
  const config = loadConfig();
  const { deps, close } = await createDeps(config);
  const admin = await ensureAdmin(deps.db, {
    username: config.adminUsername,
    password: config.adminPassword,
  });
  const app = await buildApp(deps, {
    webDir: path.join(projectRoot, 'dist/web'),
    // Through process.stdout, as console.log writes: the start-up lines come out in their order.
    logger: { ...loggerOptions(config.logLevel), stream: process.stdout },
  });
  app.log.debug({ config: describeConfig(config) }, 'configuration');
  const notifications = createNotifications(deps, (error, message) =>
    app.log.warn({ err: error, outboxId: message?.id }, 'sending a notification failed'),
  );
  // Every timer of the server starts here, once the app is ready, and stops on shutdown.
  const jobs = backgroundJobs(deps, { notifications, log: app.log });
  await app.ready();
  let metricsServer: MetricsServer | null = null;
  const stop = gracefulStop({
    app,
    lifecycle: deps.lifecycle,
    delayMs: config.operations.shutdownDelayMs,
    timeoutMs: config.operations.shutdownTimeoutMs,
    stopJobs: () => jobs.stop(),
    settleOutbox: () => notifications.worker.settle(),
    closeRest: async () => {
      notifications.close();
      await metricsServer?.close();
      await close();
    },
    log: app.log,
  });
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => `listening on ${address} (public address ${config.publicUrl})`,
  });
  app.log.info(`data: ${whereDataLives(config)}`);
  if (config.operations.metricsPort !== null) {
    metricsServer = await startMetricsServer(deps.metrics, config.operations.metricsPort, app.log);
    app.log.info(`metrics: http://127.0.0.1:${metricsServer.port}/metrics`);
  }
  if (!config.mail.smtpUrl)
    app.log.info('e-mail is off: SMTP_URL is not set, e-mail notifications wait in the outbox');
  if (admin?.generatedPassword) {
    console.log(
      `Created administrator "${admin.username}" with password: ${admin.generatedPassword}\n` +
        'It is shown only this once; change it with: npm run cli -- admin reset-password admin',
    );
  }
  jobs.start();
  deps.lifecycle.markReady();
  const warn = (error: unknown) => app.log.warn({ err: error }, 'could not prepare the demo data');
  void primeDemo(deps, warn);
}

/** The start-up line on data: the SQLite file, or PostgreSQL's host and database (no credentials). */
function whereDataLives(config: ReturnType<typeof loadConfig>): string {
  if (!config.databaseUrl) return `SQLite ${path.join(config.dataDir, 'app.sqlite')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL database ${url.pathname.slice(1)} on ${url.hostname}:${url.port || 5432}`;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    // What fails at start is a Node error (listen, fs): its code, when it has one, says why.
    const err = error as NodeJS.ErrnoException;
    const reason =
      err.code === 'EADDRINUSE'
        ? 'the port is already in use (set PORT to another one)'
        : err.code === 'ECONNREFUSED'
          ? 'the database refused the connection (is DATABASE_URL right and the server running?)'
          : err.message;
    console.error(`Could not start: ${reason}`);
  }
  process.exit(1);
});
