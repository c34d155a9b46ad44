/**
 * Runs the PayPal stand-in on its own: `npx tsx sim/paypal/main.ts`.
 * PAYPAL_SIM_PORT (default 4030); PAYPAL_SIM_WEBHOOK_URL to send signed webhooks (e.g.
 * http://localhost:5000/api/webhooks/paypal), signed for PAYPAL_WEBHOOK_ID (default SIMWEBHOOKID);
 * PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET to accept only those credentials.
 * Point the app at it with PAYPAL_API_URL=http://127.0.0.1:4030.
 */
import { startPaypalSim } from './index';

const sim = await startPaypalSim({
  port: Number(process.env.PAYPAL_SIM_PORT ?? 4030),
  host: process.env.PAYPAL_SIM_HOST ?? '127.0.0.1',
  webhookUrl: process.env.PAYPAL_SIM_WEBHOOK_URL || undefined,
  webhookId: process.env.PAYPAL_WEBHOOK_ID || undefined,
  clientId: process.env.PAYPAL_CLIENT_ID || undefined,
  clientSecret: process.env.PAYPAL_CLIENT_SECRET || undefined,
});
console.log(
  `PayPal stand-in listening on ${sim.url} (webhook id ${sim.webhookId}; control API under ${sim.url}/_sim/)`,
);

const stop = () => {
  sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
