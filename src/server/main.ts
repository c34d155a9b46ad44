/** Entry point: config → database → app → listen. Bad configuration stops here with one line. */
import './runtime-check';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './http/app';
import { backgroundJobs } from './background-jobs';
import { loggerOptions } from './http/logging';
import { createDeps } from './bootstrap';
import { ConfigError, describeConfig, loadConfig } from './config';
import { createDemoData } from './demo/demo-data';
import { createNotifications } from './notifications';
import { ensureAdmin } from './seed';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main(): Promise<void> {
  const config = loadConfig();
  const { deps, close } = await createDeps(config);
  const admin = await ensureAdmin(deps.db, {
    username: config.adminUsername,
    password: config.adminPassword,
  });
  if (admin?.generatedPassword) {
    console.log(
      `Created administrator "${admin.username}" with password: ${admin.generatedPassword}\n` +
        'It is shown only this once; change it with: npm run cli -- admin reset-password admin',
    );
  }
  const app = await buildApp(deps, {
    webDir: path.join(projectRoot, 'dist/web'),
    logger: loggerOptions(config.logLevel),
  });
  app.log.info({ config: describeConfig(config) }, 'starting');
  const notifications = createNotifications(deps, (error, message) =>
    app.log.warn({ err: error, outboxId: message?.id }, 'sending a notification failed'),
  );
  if (!config.mail.smtpUrl)
    app.log.info('e-mail is off: SMTP_URL is not set, e-mail notifications wait in the outbox');
  // Every timer of the server starts here, once the app is ready, and stops on shutdown.
  const jobs = backgroundJobs(deps, { notifications, log: app.log });
  await app.ready();
  jobs.start();
  const shutdown = async () => {
    jobs.stop();
    notifications.close();
    await app.close();
    await close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  // Fill the public demo now rather than on its first visit; it tops itself up afterwards.
  const warn = (error: unknown) => app.log.warn({ err: error }, 'could not prepare the demo data');
  const demo = createDemoData(deps, warn);
  demo
    .ensureCurrent()
    .then(() => demo.settled())
    .catch(warn);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
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
