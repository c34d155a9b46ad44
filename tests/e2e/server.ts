/**
 * The e2e world in one process: the provider stand-ins (Bland, Vapi, Retell, Stripe, PayPal) and the real app (built browser
 * bundle, SQLite in a temporary folder) wired to them. Started by Playwright's webServer, once per
 * worker on the port E2E_PORT names.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPaypalSim } from '../../sim/paypal';
import { startRetellSim } from '../../sim/platforms/retell';
import { startVapiSim } from '../../sim/platforms/vapi';
import { startSmtpSim } from '../../sim/smtp';
import { startStripeSim } from '../../sim/stripe';
import { startVoiceSim } from '../../sim/voice-provider';
import { buildApp } from '../../src/server/app';
import { cheapenPasswordHashingForTests } from '../../src/server/auth/passwords';
import { backgroundJobs } from '../../src/server/background-jobs';
import { createDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { createNotifications } from '../../src/server/notifications';
import { ensureAdmin } from '../../src/server/seed';
import {
  ADMIN,
  BASE_URL,
  E2E_PORT,
  PAYPAL_KEYS,
  PAYPAL_SIM_PORT,
  RETELL_SIM_PORT,
  SMTP_SIM_HTTP_PORT,
  SMTP_SIM_PORT,
  STRIPE_KEYS,
  STRIPE_SIM_PORT,
  VAPI_SIM_PORT,
  VOICE_SIM_PORT,
} from './support/env';
import { seedQualityFixtures } from './support/quality-seed';
import { seedE2eFixtures } from './support/seed';

async function main() {
  // Hundreds of sign-ins over a run, two worlds at once: the API suite's cheap scrypt cost, not
  // production's 128 MiB per hash (unit tests check the real cost).
  cheapenPasswordHashingForTests();
  const voice = await startVoiceSim({ port: VOICE_SIM_PORT, host: '127.0.0.1' });
  const vapi = await startVapiSim({ port: VAPI_SIM_PORT, host: '127.0.0.1' });
  const retell = await startRetellSim({ port: RETELL_SIM_PORT, host: '127.0.0.1' });
  const stripe = await startStripeSim({
    port: STRIPE_SIM_PORT,
    webhookUrl: `${BASE_URL}/api/webhooks/stripe`,
    webhookSecret: STRIPE_KEYS.webhookSecret,
    secretKey: STRIPE_KEYS.secret,
  });
  const paypal = await startPaypalSim({ port: PAYPAL_SIM_PORT });
  paypal.setWebhookTarget(`${BASE_URL}/api/webhooks/paypal`, PAYPAL_KEYS.webhookId);
  // E-mail goes to the SMTP stand-in, where specs read it (invitations: teams.spec.ts).
  const smtp = await startSmtpSim({ smtpPort: SMTP_SIM_PORT, httpPort: SMTP_SIM_HTTP_PORT });

  const config = loadConfig({
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cap-e2e-')),
    PUBLIC_URL: BASE_URL,
    APP_SECRET: 'e2e-secret-0123456789abcdef',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    BLAND_API_URL: voice.url,
    VAPI_API_URL: vapi.url,
    RETELL_API_URL: retell.url,
    STRIPE_SECRET_KEY: STRIPE_KEYS.secret,
    STRIPE_PUBLISHABLE_KEY: STRIPE_KEYS.publishable,
    STRIPE_WEBHOOK_SECRET: STRIPE_KEYS.webhookSecret,
    STRIPE_API_URL: stripe.url,
    PAYPAL_CLIENT_ID: PAYPAL_KEYS.clientId,
    PAYPAL_CLIENT_SECRET: PAYPAL_KEYS.clientSecret,
    PAYPAL_API_URL: paypal.url,
    PAYPAL_WEBHOOK_ID: PAYPAL_KEYS.webhookId,
    LOG_LEVEL: 'warn',
    // Browser tests point client webhooks at a receiver on this machine, and want them promptly.
    CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1',
    OUTBOX_INTERVAL_MS: '300',
    SMTP_URL: smtp.smtpUrl,
  });
  const { deps } = await createDeps(config);
  await ensureAdmin(deps.db, { username: config.adminUsername, password: config.adminPassword });
  await seedE2eFixtures(deps, voice);
  await seedQualityFixtures(deps, voice);
  const app = await buildApp(deps, {
    webDir: path.resolve(process.env.E2E_WEB_DIR ?? 'dist/web'),
    logger: { level: 'warn' },
  });
  await app.listen({ port: config.port, host: config.host });
  const notifications = createNotifications(deps, (error) => console.error('outbox:', error));
  backgroundJobs(deps, { notifications, log: app.log, except: ['housekeeping', 'backup'] }).start();
  console.log(`e2e server ready on ${BASE_URL}`);
}

main().catch((error) => {
  console.error('e2e server failed to start:', error);
  process.exit(1);
});
