/**
 * `npm run dev`: the whole product offline with hot reload. Starts the Bland, Vapi, Retell, Stripe, PayPal, mail
 * (SMTP) and Twilio stand-ins, the API server on :5001 wired to them (tsx watch restarts it on change), and Vite on
 * :5000 proxying /api (and the brand's images, /healthz, /readyz, /metrics: vite.config.ts) to it.
 */
import { spawn } from 'node:child_process';

const sim = {
  voice: 4010,
  stripe: 4020,
  paypal: 4030,
  mail: 4040,
  smtp: 2525,
  twilio: 4050,
  vapi: 4060,
  retell: 4070,
};
/** The Twilio stand-in's credentials (it accepts only these). */
const TWILIO = { sid: 'ACdev00000000000000000000000000000', token: 'dev-twilio-token' };
const env = {
  ...process.env,
  PORT: '5001',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5000',
  BLAND_API_URL: `http://127.0.0.1:${sim.voice}`,
  VAPI_API_URL: `http://127.0.0.1:${sim.vapi}`,
  RETELL_API_URL: `http://127.0.0.1:${sim.retell}`,
  VAPI_SIM_PORT: String(sim.vapi),
  RETELL_SIM_PORT: String(sim.retell),
  STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? 'sk_test_dev',
  STRIPE_PUBLISHABLE_KEY: process.env.STRIPE_PUBLISHABLE_KEY ?? 'pk_test_dev',
  STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? 'whsec_dev',
  STRIPE_API_URL: `http://127.0.0.1:${sim.stripe}`,
  // Offline, browsers get the stand-in Stripe.js from the Stripe stand-in instead of js.stripe.com.
  STRIPE_JS_URL: `http://127.0.0.1:${sim.stripe}/v3`,
  PAYPAL_CLIENT_ID: process.env.PAYPAL_CLIENT_ID ?? 'paypal-dev-client',
  PAYPAL_CLIENT_SECRET: process.env.PAYPAL_CLIENT_SECRET ?? 'paypal-dev-secret',
  PAYPAL_API_URL: `http://127.0.0.1:${sim.paypal}`,
  // The PayPal stand-in's default webhook id, so its signed webhooks verify.
  PAYPAL_WEBHOOK_ID: process.env.PAYPAL_WEBHOOK_ID ?? 'SIMWEBHOOKID',
  ADMIN_USERNAME: process.env.ADMIN_USERNAME ?? 'admin',
  ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'admin-password',
  VOICE_SIM_PORT: String(sim.voice),
  STRIPE_SIM_PORT: String(sim.stripe),
  PAYPAL_SIM_PORT: String(sim.paypal),
  STRIPE_SIM_WEBHOOK_URL: 'http://127.0.0.1:5001/api/webhooks/stripe',
  STRIPE_SIM_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? 'whsec_dev',
  PAYPAL_SIM_WEBHOOK_URL: 'http://127.0.0.1:5001/api/webhooks/paypal',
  // Notifications: e-mail to the SMTP stand-in (its page: http://127.0.0.1:4040), texts to the Twilio one.
  SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${sim.smtp}`,
  MAIL_FROM: process.env.MAIL_FROM ?? 'Call Analytics <notifications@agency.example>',
  TWILIO_ACCOUNT_SID: process.env.TWILIO_ACCOUNT_SID ?? TWILIO.sid,
  TWILIO_AUTH_TOKEN: process.env.TWILIO_AUTH_TOKEN ?? TWILIO.token,
  TWILIO_FROM: process.env.TWILIO_FROM ?? '+15005550006',
  TWILIO_API_URL: `http://127.0.0.1:${sim.twilio}`,
  OUTBOX_INTERVAL_MS: '1000',
  // Client webhooks may point at the mail stand-in's /hooks/… on this machine.
  CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1',
  MAIL_SIM_PORT: String(sim.mail),
  SMTP_SIM_PORT: String(sim.smtp),
  TWILIO_SIM_PORT: String(sim.twilio),
  TWILIO_SIM_ACCOUNT_SID: TWILIO.sid,
  TWILIO_SIM_AUTH_TOKEN: TWILIO.token,
};

const children = [
  spawn('npx', ['tsx', 'sim/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite', '--port', '5000', '--strictPort'], {
    stdio: 'inherit',
    env: { ...env, API_PORT: '5001' },
  }),
];
console.log(
  `Dev: app http://localhost:5000 (admin: ${env.ADMIN_USERNAME} / ${env.ADMIN_PASSWORD}); simulators on ${Object.values(sim).join(', ')}`,
);

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
