/**
 * `npm run sim`: the local stand-ins for Bland AI, Vapi, Retell, Stripe, PayPal, a mail relay (SMTP) and Twilio, for `npm run dev` and for
 * anyone evaluating the product offline. Each speaks its service's wire format (see docs/).
 */
import { startPaypalSim } from './paypal';
import { seedPlatformDemo } from './platforms/common';
import { RETELL_DEMO_KEY, startRetellSim } from './platforms/retell';
import { startVapiSim, VAPI_DEMO_KEY } from './platforms/vapi';
import { startSmtpSim } from './smtp';
import { startStripeSim } from './stripe';
import { startTwilioSim } from './twilio';
import { SIM_DEMO_KEY, seedDemoAccount, startVoiceSim } from './voice-provider';

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const voice = await startVoiceSim({ port: port('VOICE_SIM_PORT', 4010), host: '127.0.0.1' });
seedDemoAccount(voice);
const vapi = await startVapiSim({ port: port('VAPI_SIM_PORT', 4060), host: '127.0.0.1' });
seedPlatformDemo(vapi, VAPI_DEMO_KEY);
const retell = await startRetellSim({ port: port('RETELL_SIM_PORT', 4070), host: '127.0.0.1' });
seedPlatformDemo(retell, RETELL_DEMO_KEY);
const stripe = await startStripeSim({
  port: port('STRIPE_SIM_PORT', 4020),
  webhookUrl: process.env.STRIPE_SIM_WEBHOOK_URL,
  webhookSecret: process.env.STRIPE_SIM_WEBHOOK_SECRET,
});
const paypal = await startPaypalSim({ port: port('PAYPAL_SIM_PORT', 4030) });
if (process.env.PAYPAL_SIM_WEBHOOK_URL) paypal.setWebhookTarget(process.env.PAYPAL_SIM_WEBHOOK_URL);

const mail = await startSmtpSim({
  smtpPort: port('SMTP_SIM_PORT', 2525),
  httpPort: port('MAIL_SIM_PORT', 4040),
});
const twilio = await startTwilioSim({
  port: port('TWILIO_SIM_PORT', 4050),
  accountSid: process.env.TWILIO_SIM_ACCOUNT_SID,
  authToken: process.env.TWILIO_SIM_AUTH_TOKEN,
});

console.log(
  `Simulators: Bland AI ${voice.url} (API key ${SIM_DEMO_KEY}), Vapi ${vapi.url} (API key ${VAPI_DEMO_KEY}), ` +
    `Retell ${retell.url} (API key ${RETELL_DEMO_KEY}), Stripe ${stripe.url}, PayPal ${paypal.url}, ` +
    `mail ${mail.smtpUrl} (received mail: ${mail.url}), Twilio ${twilio.url} (sent texts: ${twilio.url}/_sim/messages)`,
);
