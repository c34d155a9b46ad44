/**
 * Configuration: parsed once at boot from the environment into one typed object.
 * Nothing else in the server reads process.env; everything receives a Config.
 */

import { createPrivateKey, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { LIVE_HEARTBEAT_MS } from '../contract/live';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… when set; SQLite under dataDir otherwise. */
  databaseUrl: string | null;
  appSecret: string;
  publicUrl: string;
  adminUsername: string | null;
  adminPassword: string | null;
  blandApiUrl: string;
  vapiApiUrl: string;
  retellApiUrl: string;
  stripe: {
    secretKey: string | null;
    publishableKey: string | null;
    webhookSecret: string | null;
    apiUrl: string | null;
    /** Where browsers load Stripe.js from when not js.stripe.com (the offline stand-in in dev). */
    jsUrl: string | null;
    /**
     * How long confirming a 3-D Secure payment waits for Stripe to activate the subscription
     * before answering "pending" (the invoice.paid webhook then activates it).
     */
    confirmWaitMs: number;
  };
  paypal: {
    clientId: string | null;
    clientSecret: string | null;
    apiUrl: string;
    webhookId: string | null;
    /** How often PayPal subscriptions are re-read from PayPal (a lost webhook is repaired then). */
    reconcileIntervalMs: number;
  };
  /** A provider API key used for the public demo; demo data is generated when unset. */
  demoBlandApiKey: string | null;
  logLevel: string;
  http: HttpLimits;
  /** Fastify's trustProxy: false, a number of hops, or the proxies' addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  /** Webhook delivery log entries older than this are pruned. */
  webhookDeliveryRetentionDays: number;
  /** Deliveries one webhook URL may make per minute, across all instances. */
  webhookDeliveriesPerMinute: number;
  creationCaps: CreationCaps;
  /** Notifications. */
  mail: {
    /** smtp:// or smtps:// relay; null: e-mail is off. */
    smtpUrl: string | null;
    from: string;
    /** The agency's own address: payment failures and clients whose calls stopped arriving. */
    adminEmail: string | null;
    /** DKIM signing for MAIL_FROM's domain (DKIM_SELECTOR, DKIM_PRIVATE_KEY as PEM); null: unsigned. */
    dkim: { selector: string; privateKey: string } | null;
  };
  /**
   * The DNS servers "Check DNS" asks (DNS_SERVERS, "host:port" list), for a split-horizon or a
   * test resolver; null: the system's.
   */
  dnsServers: string[] | null;
  /** Texts through Twilio's Messages API; null: texts wait in the outbox. */
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string } | null;
  /** Texts one client may be sent per UTC day, codes included (TEXTS_PER_CLIENT_PER_DAY). */
  textsPerClientPerDay: number;
  /** How often the outbox worker looks for due messages. */
  outboxIntervalMs: number;
  /** How often a live stream sends a heartbeat and checks its session again (LIVE_HEARTBEAT_MS). */
  liveHeartbeatMs: number;
  /** The agency's name at the top of e-mails, texts and reports (AGENCY_NAME). */
  brandName: string;
  /**
   * Clients' webhook URLs may point at loopback and private addresses (local development and
   * tests only: in production that would let a client make the server call inside its network).
   */
  clientWebhooksAllowPrivate: boolean;
  /** Operations: metrics, readiness, graceful stop, backups (docs/operations.md). */
  operations: OperationsConfig;
}

export interface OperationsConfig {
  /** GET /metrics on the main port answers only with `Authorization: Bearer <token>`; null: not there. */
  metricsToken: string | null;
  /** A second listener on 127.0.0.1 serving /metrics without a token; null: none. */
  metricsPort: number | null;
  /** /readyz fails when a due outbox message has waited longer than this; 0: not checked. */
  readyOutboxMaxAgeMs: number;
  /** After SIGTERM, /readyz answers 503 this long before the server stops accepting (load balancers notice). */
  shutdownDelayMs: number;
  /** The longest SIGTERM waits for requests, streams and the outbox's sends in flight before exiting. */
  shutdownTimeoutMs: number;
  /** Where backups are written (BACKUP_DIR). */
  backupDir: string;
  /** Backups are encrypted (AES-256-GCM, a key derived from this) when set. */
  backupEncryptionKey: string | null;
  /** Cron syntax in the server's time zone; null: no scheduled backups. */
  backupSchedule: string | null;
  /** Scheduled backups kept in BACKUP_DIR (older ones are deleted after each). */
  backupKeep: number;
}

/** What one client or admin may create per window (creation-caps.ts; README "Security notes"). */
export interface CreationCaps {
  /** Onboarding-wizard drafts (new client rows) per admin per hour. */
  draftsPerHour: number;
  /** Sample data sets per client per day. */
  sampleSetsPerDay: number;
  /** Purchase attempts (card or PayPal) per client per hour: each adds a payment row and provider objects. */
  checkoutsPerHour: number;
  /** "Send test event" presses per client per hour: each sends at once and adds a delivery row. */
  webhookTestsPerHour: number;
  /** "Send again" presses per client per hour: each queues a delivery row. */
  webhookResendsPerHour: number;
  /** Call exports (CSV/XLSX downloads) per account per hour: each reads the whole log window. */
  exportsPerHour: number;
  /** Invitations (new or sent again) one client may send per day. */
  invitationsPerDay: number;
  /** "Check DNS" presses per admin per hour: each sends a few DNS queries. */
  dnsChecksPerHour: number;
  /** Caller erasures and caller data exports one client may ask for per hour. */
  erasuresPerHour: number;
  /** Verification codes one user may have texted per hour (each is a text). */
  smsCodesPerHour: number;
  /** Distinct numbers one user who sees masked numbers may search for per hour (each is an activity line). */
  numberSearchesPerHour: number;
}

/** How long a connection may take over each part of a request (README "Security notes"). */
export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this. */
  requestTimeoutMs: number;
  /** The header section must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic at all is closed after this. */
  connectionTimeoutMs: number;
}

export class ConfigError extends Error {}

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional()
  .transform((v) => v ?? null);

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, `${name} must be an http(s) URL`)
    .transform((v) => v.replace(/\/+$/, ''));

const milliseconds = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number of milliseconds`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max} milliseconds`)
    .optional();

const perWindow = (name: string, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `${name} must be between 1 and ${max}`)
    .optional();

/** "false" (default), a number of proxy hops, or a comma list of proxy addresses or CIDRs. */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v): boolean | number | string[] => {
    if (!v || v === 'false') return false;
    if (/^\d+$/.test(v)) return Number(v);
    return v.split(',').map((part) => part.trim());
  })
  .refine(
    (v) => !Array.isArray(v) || v.every((part) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(part)),
    'TRUST_PROXY must be false, a number of proxy hops, or a comma list of IP addresses or CIDRs',
  );

const EnvSchema = z.object({
  PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'PORT must be a whole number between 1 and 65535')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, 'PORT must be a whole number between 1 and 65535')
    .optional(),
  HOST: optional,
  DATA_DIR: optional,
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => {
      if (v === null) return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'DATABASE_URL must look like postgres://user@host:5432/database'),
  APP_SECRET: optional.refine(
    (v) => v === null || v.length >= 16,
    'APP_SECRET must be at least 16 characters',
  ),
  PUBLIC_URL: httpUrl('PUBLIC_URL').optional(),
  ADMIN_USERNAME: optional,
  ADMIN_PASSWORD: optional,
  BLAND_API_URL: httpUrl('BLAND_API_URL').optional(),
  VAPI_API_URL: httpUrl('VAPI_API_URL').optional(),
  RETELL_API_URL: httpUrl('RETELL_API_URL').optional(),
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: httpUrl('STRIPE_API_URL').optional(),
  STRIPE_JS_URL: httpUrl('STRIPE_JS_URL').optional(),
  STRIPE_CONFIRM_WAIT_MS: milliseconds('STRIPE_CONFIRM_WAIT_MS', 0, 60_000),
  PAYPAL_CLIENT_ID: optional,
  PAYPAL_CLIENT_SECRET: optional,
  PAYPAL_API_URL: httpUrl('PAYPAL_API_URL').optional(),
  PAYPAL_WEBHOOK_ID: optional,
  PAYPAL_RECONCILE_INTERVAL_MS: milliseconds('PAYPAL_RECONCILE_INTERVAL_MS', 10_000, 86_400_000),
  DEMO_BLAND_API_KEY: optional,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds('HTTP_REQUEST_TIMEOUT_MS', 1_000, 600_000),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds('HTTP_HEADERS_TIMEOUT_MS', 1_000, 600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds('HTTP_KEEP_ALIVE_TIMEOUT_MS', 1_000, 600_000),
  HTTP_CONNECTION_TIMEOUT_MS: milliseconds('HTTP_CONNECTION_TIMEOUT_MS', 1_000, 3_600_000),
  TRUST_PROXY: trustProxy,
  WEBHOOK_DELIVERIES_PER_MINUTE: z
    .string()
    .trim()
    .regex(/^\d+$/, 'WEBHOOK_DELIVERIES_PER_MINUTE must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1_000_000, 'WEBHOOK_DELIVERIES_PER_MINUTE must be between 1 and 1,000,000')
    .optional(),
  CAP_DRAFTS_PER_HOUR: perWindow('CAP_DRAFTS_PER_HOUR', 10_000),
  CAP_SAMPLE_SETS_PER_DAY: perWindow('CAP_SAMPLE_SETS_PER_DAY', 1_000),
  CAP_CHECKOUTS_PER_HOUR: perWindow('CAP_CHECKOUTS_PER_HOUR', 1_000),
  CAP_WEBHOOK_TESTS_PER_HOUR: perWindow('CAP_WEBHOOK_TESTS_PER_HOUR', 1_000),
  CAP_WEBHOOK_RESENDS_PER_HOUR: perWindow('CAP_WEBHOOK_RESENDS_PER_HOUR', 10_000),
  CAP_EXPORTS_PER_HOUR: perWindow('CAP_EXPORTS_PER_HOUR', 10_000),
  CAP_INVITATIONS_PER_DAY: perWindow('CAP_INVITATIONS_PER_DAY', 10_000),
  CAP_DNS_CHECKS_PER_HOUR: perWindow('CAP_DNS_CHECKS_PER_HOUR', 1_000),
  CAP_ERASURES_PER_HOUR: perWindow('CAP_ERASURES_PER_HOUR', 10_000),
  CAP_SMS_CODES_PER_HOUR: perWindow('CAP_SMS_CODES_PER_HOUR', 100),
  TEXTS_PER_CLIENT_PER_DAY: perWindow('TEXTS_PER_CLIENT_PER_DAY', 100_000),
  CAP_NUMBER_SEARCHES_PER_HOUR: perWindow('CAP_NUMBER_SEARCHES_PER_HOUR', 10_000),
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => {
      if (v === null) return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'SMTP_URL must look like smtp://user:password@host:587 (or smtps:// for implicit TLS)'),
  MAIL_FROM: optional.refine(
    (v) => v == null || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(v),
    'MAIL_FROM must be an address, or a name and <address>',
  ),
  ADMIN_EMAIL: optional.refine(
    (v) => v == null || /^[^\s@]+@[^\s@]+$/.test(v),
    'ADMIN_EMAIL must be an e-mail address',
  ),
  // PEM text; "\n" escapes stand for line breaks, for environments that hold one line only.
  DKIM_PRIVATE_KEY: optional.transform((v) => (v ? v.replace(/\\n/g, '\n') : null)),
  DKIM_SELECTOR: optional.refine(
    (v) =>
      v == null ||
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(v),
    'DKIM_SELECTOR must be a DNS label such as mail2026',
  ),
  DNS_SERVERS: optional
    .transform((v) => (v ? v.split(',').map((s) => s.trim()) : null))
    .refine(
      (v) => v == null || v.every(isDnsServer),
      'DNS_SERVERS must be a comma list of IP addresses, each with an optional :port (127.0.0.1:53, [::1]:5353)',
    ),
  OUTBOX_INTERVAL_MS: milliseconds('OUTBOX_INTERVAL_MS', 100, 600_000),
  LIVE_HEARTBEAT_MS: milliseconds('LIVE_HEARTBEAT_MS', 200, 120_000),
  TWILIO_ACCOUNT_SID: optional,
  TWILIO_AUTH_TOKEN: optional,
  TWILIO_FROM: optional,
  TWILIO_API_URL: httpUrl('TWILIO_API_URL').optional(),
  AGENCY_NAME: z.string().trim().min(1).max(80, 'AGENCY_NAME must be at most 80 characters').optional(),
  CLIENT_WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['0', '1', 'true', 'false'], { message: 'CLIENT_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0' })
    .optional(),
  METRICS_TOKEN: optional.refine(
    (v) => v === null || v.length >= 16,
    'METRICS_TOKEN must be at least 16 characters',
  ),
  METRICS_PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'METRICS_PORT must be a whole number between 1 and 65535')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, 'METRICS_PORT must be a whole number between 1 and 65535')
    .optional(),
  READY_OUTBOX_MAX_AGE_MS: milliseconds('READY_OUTBOX_MAX_AGE_MS', 0, 7 * 86_400_000),
  SHUTDOWN_DELAY_MS: milliseconds('SHUTDOWN_DELAY_MS', 0, 120_000),
  SHUTDOWN_TIMEOUT_MS: milliseconds('SHUTDOWN_TIMEOUT_MS', 1_000, 600_000),
  BACKUP_DIR: optional,
  BACKUP_ENCRYPTION_KEY: optional.refine(
    (v) => v === null || v.length >= 16,
    'BACKUP_ENCRYPTION_KEY must be at least 16 characters',
  ),
  BACKUP_SCHEDULE: optional.refine(
    (v) => v === null || v === 'off' || isCron(v),
    'BACKUP_SCHEDULE must be cron syntax such as "0 3 * * *" (minute hour day month weekday), or off',
  ),
  BACKUP_KEEP: perWindow('BACKUP_KEEP', 10_000),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'WEBHOOK_DELIVERY_RETENTION_DAYS must be a whole number of days')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 3650, 'WEBHOOK_DELIVERY_RETENTION_DAYS must be between 1 and 3650')
    .optional(),
});

export interface LoadConfigOptions {
  /**
   * Leave DATA_DIR as it is: no secret is generated into it (`npm run restore` into an empty
   * folder, `npm run backup` of a folder that holds nothing yet). appSecret is then '' when
   * neither APP_SECRET nor DATA_DIR/app-secret gives one.
   */
  readOnlyDataDir?: boolean;
}

/** Parses the environment. Throws ConfigError with one readable line on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const port = e.PORT ?? 5000;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  if (e.DATABASE_URL && !e.APP_SECRET) {
    // A secret generated into one instance's DATA_DIR would differ on the next instance.
    throw new ConfigError(
      'Invalid configuration: APP_SECRET must be set when DATABASE_URL is set, the same on every instance',
    );
  }
  const twilioParts = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN, e.TWILIO_FROM].filter(Boolean).length;
  if (twilioParts > 0 && twilioParts < 3) {
    throw new ConfigError(
      'Invalid configuration: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set together or not at all',
    );
  }
  if (Boolean(e.DKIM_PRIVATE_KEY) !== Boolean(e.DKIM_SELECTOR)) {
    throw new ConfigError(
      'Invalid configuration: DKIM_PRIVATE_KEY and DKIM_SELECTOR are set together or not at all',
    );
  }
  if (e.DKIM_PRIVATE_KEY) checkDkimKey(e.DKIM_PRIVATE_KEY);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === port) {
    throw new ConfigError('Invalid configuration: METRICS_PORT must differ from PORT');
  }
  if (e.ADMIN_USERNAME && !e.ADMIN_PASSWORD) {
    throw new ConfigError('Invalid configuration: ADMIN_PASSWORD must be set when ADMIN_USERNAME is set');
  }
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appSecret:
      e.APP_SECRET ?? (options.readOnlyDataDir ? (readSecret(dataDir) ?? '') : loadOrCreateSecret(dataDir)),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${port}`,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    blandApiUrl: e.BLAND_API_URL ?? 'https://api.bland.ai',
    vapiApiUrl: e.VAPI_API_URL ?? 'https://api.vapi.ai',
    retellApiUrl: e.RETELL_API_URL ?? 'https://api.retellai.com',
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiUrl: e.STRIPE_API_URL ?? null,
      jsUrl: e.STRIPE_JS_URL ?? null,
      confirmWaitMs: e.STRIPE_CONFIRM_WAIT_MS ?? 10_000,
    },
    paypal: {
      clientId: e.PAYPAL_CLIENT_ID,
      clientSecret: e.PAYPAL_CLIENT_SECRET,
      apiUrl: e.PAYPAL_API_URL ?? 'https://api-m.sandbox.paypal.com',
      webhookId: e.PAYPAL_WEBHOOK_ID,
      reconcileIntervalMs: e.PAYPAL_RECONCILE_INTERVAL_MS ?? 15 * 60 * 1000,
    },
    demoBlandApiKey: e.DEMO_BLAND_API_KEY,
    logLevel: e.LOG_LEVEL ?? 'info',
    http: httpLimits(e),
    trustProxy: e.TRUST_PROXY,
    webhookDeliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS ?? 30,
    // Generous: one client's busy hour must never be turned away.
    webhookDeliveriesPerMinute: e.WEBHOOK_DELIVERIES_PER_MINUTE ?? 6000,
    creationCaps: {
      draftsPerHour: e.CAP_DRAFTS_PER_HOUR ?? 60,
      sampleSetsPerDay: e.CAP_SAMPLE_SETS_PER_DAY ?? 5,
      checkoutsPerHour: e.CAP_CHECKOUTS_PER_HOUR ?? 20,
      webhookTestsPerHour: e.CAP_WEBHOOK_TESTS_PER_HOUR ?? 20,
      webhookResendsPerHour: e.CAP_WEBHOOK_RESENDS_PER_HOUR ?? 60,
      exportsPerHour: e.CAP_EXPORTS_PER_HOUR ?? 60,
      invitationsPerDay: e.CAP_INVITATIONS_PER_DAY ?? 50,
      dnsChecksPerHour: e.CAP_DNS_CHECKS_PER_HOUR ?? 30,
      erasuresPerHour: e.CAP_ERASURES_PER_HOUR ?? 100,
      smsCodesPerHour: e.CAP_SMS_CODES_PER_HOUR ?? 5,
      numberSearchesPerHour: e.CAP_NUMBER_SEARCHES_PER_HOUR ?? 30,
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? 'Call Analytics <notifications@localhost>',
      adminEmail: e.ADMIN_EMAIL ?? null,
      dkim:
        e.DKIM_PRIVATE_KEY && e.DKIM_SELECTOR
          ? { selector: e.DKIM_SELECTOR.toLowerCase(), privateKey: e.DKIM_PRIVATE_KEY }
          : null,
    },
    dnsServers: e.DNS_SERVERS,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM,
            apiUrl: e.TWILIO_API_URL ?? 'https://api.twilio.com',
          }
        : null,
    textsPerClientPerDay: e.TEXTS_PER_CLIENT_PER_DAY ?? 50,
    outboxIntervalMs: e.OUTBOX_INTERVAL_MS ?? 5_000,
    liveHeartbeatMs: e.LIVE_HEARTBEAT_MS ?? LIVE_HEARTBEAT_MS,
    brandName: e.AGENCY_NAME ?? 'Call Analytics',
    clientWebhooksAllowPrivate:
      e.CLIENT_WEBHOOKS_ALLOW_PRIVATE === '1' || e.CLIENT_WEBHOOKS_ALLOW_PRIVATE === 'true',
    operations: {
      metricsToken: e.METRICS_TOKEN,
      metricsPort: e.METRICS_PORT ?? null,
      readyOutboxMaxAgeMs: e.READY_OUTBOX_MAX_AGE_MS ?? 3_600_000,
      shutdownDelayMs: e.SHUTDOWN_DELAY_MS ?? 0,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 20_000,
      backupDir: path.resolve(e.BACKUP_DIR ?? './backups'),
      backupEncryptionKey: e.BACKUP_ENCRYPTION_KEY,
      backupSchedule: e.BACKUP_SCHEDULE === 'off' ? null : (e.BACKUP_SCHEDULE ?? '0 3 * * *'),
      backupKeep: e.BACKUP_KEEP ?? 14,
    },
  };
}

function isCron(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true });
    return true;
  } catch {
    return false;
  }
}

/** "1.2.3.4", "1.2.3.4:53", "::1" or "[::1]:53": what node:dns's Resolver.setServers takes. */
function isDnsServer(entry: string): boolean {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry);
  if (!m) return isIP(entry) === 6;
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return isIP(m[1]) !== 0 && port >= 1 && port <= 65535;
}

/** The key nodemailer signs with: an RSA private key in PEM (DKIM's rsa-sha256). */
function checkDkimKey(pem: string): void {
  let type: string | undefined;
  try {
    type = createPrivateKey(pem).asymmetricKeyType;
  } catch {
    throw new ConfigError(
      'Invalid configuration: DKIM_PRIVATE_KEY must be an RSA private key in PEM (-----BEGIN PRIVATE KEY----- …)',
    );
  }
  if (type !== 'rsa')
    throw new ConfigError(`Invalid configuration: DKIM_PRIVATE_KEY must be an RSA key (this one is ${type})`);
}

function httpLimits(e: z.infer<typeof EnvSchema>): HttpLimits {
  const requestTimeoutMs = e.HTTP_REQUEST_TIMEOUT_MS ?? 30_000;
  // Node requires the header deadline to be within the request's.
  const headersTimeoutMs = Math.min(e.HTTP_HEADERS_TIMEOUT_MS ?? 20_000, requestTimeoutMs);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 10_000,
    // Recordings stream for minutes; only a socket silent this long is dropped.
    connectionTimeoutMs: e.HTTP_CONNECTION_TIMEOUT_MS ?? 120_000,
  };
}

function readSecret(dataDir: string): string | null {
  const file = path.join(dataDir, 'app-secret');
  if (!existsSync(file)) return null;
  const secret = readFileSync(file, 'utf8').trim();
  return secret.length >= 16 ? secret : null;
}

/** The generated secret lives in DATA_DIR/app-secret, readable by the owner only. */
function loadOrCreateSecret(dataDir: string): string {
  const existing = readSecret(dataDir);
  if (existing) return existing;
  const file = path.join(dataDir, 'app-secret');
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** For logging: the config with every secret masked. */
export function describeConfig(config: Config): Record<string, unknown> {
  const mask = (v: string | null) => (v ? '***' : null);
  return {
    ...config,
    appSecret: '***',
    adminPassword: mask(config.adminPassword),
    databaseUrl: config.databaseUrl ? config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') : null,
    stripe: {
      ...config.stripe,
      secretKey: mask(config.stripe.secretKey),
      webhookSecret: mask(config.stripe.webhookSecret),
    },
    paypal: { ...config.paypal, clientSecret: mask(config.paypal.clientSecret) },
    mail: {
      ...config.mail,
      smtpUrl: config.mail.smtpUrl ? config.mail.smtpUrl.replace(/\/\/[^@/]*@/, '//***@') : null,
      dkim: config.mail.dkim ? { selector: config.mail.dkim.selector, privateKey: '***' } : null,
    },
    demoBlandApiKey: mask(config.demoBlandApiKey),
    operations: {
      ...config.operations,
      metricsToken: mask(config.operations.metricsToken),
      backupEncryptionKey: mask(config.operations.backupEncryptionKey),
    },
  };
}
