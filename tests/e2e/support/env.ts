/** Fixed facts shared by the e2e server and the specs (ports, credentials of seeded users). */
/** The first e2e world's port; each world (app and stand-ins) takes WORLD_PORTS ports from its own. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 5180);
export const WORLD_PORTS = 10;
/**
 * With several Playwright workers each talks to a world of its own (its own server and data), so
 * specs on different workers never see each other's rows. Playwright numbers its workers from 0
 * in TEST_PARALLEL_INDEX; the runner and the e2e server have none and get the port they were given.
 */
export const E2E_PORT = E2E_BASE_PORT + WORLD_PORTS * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const VOICE_SIM_PORT = E2E_PORT + 1;
export const STRIPE_SIM_PORT = E2E_PORT + 2;
export const PAYPAL_SIM_PORT = E2E_PORT + 3;
export const VAPI_SIM_PORT = E2E_PORT + 4;
export const RETELL_SIM_PORT = E2E_PORT + 5;
export const VOICE_SIM_URL = `http://127.0.0.1:${VOICE_SIM_PORT}`;
export const STRIPE_SIM_URL = `http://127.0.0.1:${STRIPE_SIM_PORT}`;
export const PAYPAL_SIM_URL = `http://127.0.0.1:${PAYPAL_SIM_PORT}`;
export const VAPI_SIM_URL = `http://127.0.0.1:${VAPI_SIM_PORT}`;
export const RETELL_SIM_URL = `http://127.0.0.1:${RETELL_SIM_PORT}`;
/** The SMTP stand-in (issue 36's invitations): mail in on SMTP_SIM_PORT, read as JSON at SMTP_SIM_URL/_sim/messages. */
export const SMTP_SIM_PORT = E2E_PORT + 6;
export const SMTP_SIM_HTTP_PORT = E2E_PORT + 7;
export const SMTP_SIM_URL = `http://127.0.0.1:${SMTP_SIM_HTTP_PORT}`;

export const ADMIN = { username: 'e2e-admin', password: 'e2e-admin-password', name: 'e2e-admin' };
/** A client seeded at start with a password and an API key known to the voice simulator. */
export const CLIENT = {
  email: 'e2e-client@example.com',
  password: 'e2e-client-password',
  company: 'Northwind Dental',
  apiKey: 'sim_e2e_client_key',
};
/** Separate clients for specs that change account state (subscription, password), so specs stay independent. */
export const BILLING_CLIENT = {
  email: 'e2e-billing@example.com',
  password: 'e2e-billing-password',
  company: 'Billing Test LLC',
  apiKey: 'sim_e2e_billing_key',
};
export const SETTINGS_CLIENT = {
  email: 'e2e-settings@example.com',
  password: 'e2e-settings-password',
  company: 'Settings Test Inc',
  apiKey: 'sim_e2e_settings_key',
};
/** A client whose agent books appointments (outcomes.spec.ts). */
export const OUTCOMES_CLIENT = {
  email: 'e2e-outcomes@example.com',
  password: 'e2e-outcomes-password',
  company: 'Bright Smile Clinic',
  apiKey: 'sim_e2e_outcomes_key',
};
/** A client whose key the agency console spec breaks and mends (agency-console.spec.ts). */
export const SUPPORT_CLIENT = {
  email: 'e2e-support@example.com',
  password: 'e2e-support-password',
  company: 'Harbor Support Co',
  apiKey: 'sim_e2e_support_key',
};
/**
 * Masked numbers (masked-numbers.spec.ts): the account login is this client's Owner; seed.ts adds
 * PRIVACY_VIEWER, an active Viewer (no unmask_numbers) of the same client.
 */
export const PRIVACY_CLIENT = {
  email: 'e2e-privacy@example.com',
  password: 'e2e-privacy-password',
  company: 'Quiet Line Realty',
  apiKey: 'sim_e2e_privacy_key',
};
export const PRIVACY_VIEWER = {
  email: 'e2e-privacy-viewer@example.com',
  password: 'e2e-privacy-viewer-password',
  name: 'Vera Viewer',
};
/** A client in New York whose outcomes change from one week to the next (numbers.spec.ts). */
export const NUMBERS_CLIENT = {
  email: 'e2e-numbers@example.com',
  password: 'e2e-numbers-password',
  company: 'Lakeside Plumbing',
  apiKey: 'sim_e2e_numbers_key',
  timezone: 'America/New_York',
};
export const SEEDED_CLIENTS = [
  CLIENT,
  BILLING_CLIENT,
  SETTINGS_CLIENT,
  OUTCOMES_CLIENT,
  SUPPORT_CLIENT,
  PRIVACY_CLIENT,
  NUMBERS_CLIENT,
];

export const STRIPE_KEYS = {
  secret: 'sk_test_e2e',
  publishable: 'pk_test_e2e',
  webhookSecret: 'whsec_e2e_secret',
};
export const PAYPAL_KEYS = {
  clientId: 'paypal-e2e-client',
  clientSecret: 'paypal-e2e-secret',
  webhookId: 'WH-E2E',
};
