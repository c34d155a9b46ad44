/**
 * Notifications wiring: the senders this instance can use (from the configuration) and the
 * outbox worker that drives them. Its jobs (the outbox, account alerts) are started by
 * background-jobs.ts; tests run rounds by hand.
 */
import type { AppDeps } from '../context';
import type { OutboxRow } from '../db/schema';
import type { Job } from '../http/jobs';
import { createMailer, type Mailer } from '../providers/messaging/mailer';
import { createTwilioClient } from '../providers/messaging/twilio';
import { checkAccountAlerts } from './account-alerts';
import { emailSender } from './email-sender';
import { smsSender } from './sms-sender';
import { type WebhookContext, webhookSender } from './webhook-sender';
import { createOutboxWorker, type OutboxWorker, type Senders } from './worker';

/** Account alerts are checked this often (each check is idempotent: dedupe keys). */
export const ACCOUNT_ALERTS_INTERVAL_MS = 10 * 60 * 1000;

export interface Notifications {
  worker: OutboxWorker;
  /** Queues the account alerts due now (usage thresholds, silent clients). */
  checkAlerts(): Promise<number>;
  /** The outbox worker's job and the account alerts' (checked at start, then every 10 minutes). */
  jobs(): Job[];
  /** Null when SMTP_URL is not set: e-mail waits in the outbox. */
  mailer: Mailer | null;
  close(): void;
}

/** What the webhook channel needs, for the worker and for "Send test event". */
export function webhookContext(deps: AppDeps): WebhookContext {
  return {
    db: deps.db,
    secrets: deps.secrets,
    publicUrl: deps.config.publicUrl,
    allowPrivate: deps.config.clientWebhooksAllowPrivate,
    now: deps.now,
  };
}

export function createNotifications(
  deps: AppDeps,
  onError: (error: unknown, message?: OutboxRow) => void,
  extra: Senders = {},
): Notifications {
  const { config } = deps;
  const mailer = config.mail.smtpUrl
    ? createMailer(config.mail.smtpUrl, config.mail.from, config.mail.dkim)
    : null;
  const senders: Senders = {
    ...(mailer ? { email: emailSender(deps, mailer) } : {}),
    ...(config.twilio ? { sms: smsSender(deps, createTwilioClient(config.twilio)) } : {}),
    webhook: webhookSender(webhookContext(deps)),
    ...extra,
  };
  const worker = createOutboxWorker(deps, senders, onError);
  const checkAlerts = () => checkAccountAlerts(deps, deps.now());
  return {
    worker,
    mailer,
    checkAlerts,
    jobs: () => [
      worker.job(config.outboxIntervalMs),
      {
        name: 'account-alerts',
        intervalMs: ACCOUNT_ALERTS_INTERVAL_MS,
        runAtStart: true,
        run: () => {
          checkAlerts().catch((error) => onError(error));
        },
      },
    ],
    close() {
      mailer?.close();
    },
  };
}
