/**
 * Runs the Stripe stand-in on its own: `npx tsx sim/stripe/main.ts`.
 * STRIPE_SIM_PORT (default 4020); STRIPE_SIM_WEBHOOK_URL and STRIPE_SIM_WEBHOOK_SECRET (or
 * STRIPE_WEBHOOK_SECRET) to send signed webhooks (e.g. http://localhost:5000/api/webhooks/stripe);
 * STRIPE_SECRET_KEY to accept only that key.
 * Point the app at it with STRIPE_API_URL=http://127.0.0.1:4020.
 */
import { startStripeSim } from './index';

const port = Number(process.env.STRIPE_SIM_PORT ?? 4020);
const sim = await startStripeSim({
  port,
  host: process.env.STRIPE_SIM_HOST ?? '127.0.0.1',
  webhookUrl: process.env.STRIPE_SIM_WEBHOOK_URL || undefined,
  webhookSecret: process.env.STRIPE_SIM_WEBHOOK_SECRET || process.env.STRIPE_WEBHOOK_SECRET || undefined,
  secretKey: process.env.STRIPE_SECRET_KEY || undefined,
});
console.log(`Stripe stand-in listening on ${sim.url} (control API under ${sim.url}/_sim/)`);

const stop = () => {
  sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
