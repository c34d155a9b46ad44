/**
 * Every background job the server runs, in one list; main.ts starts them all once the app is ready
 * and stops them on shutdown (http/jobs.ts runs them). Every instance runs every job: each run is
 * idempotent, or claims its work (the outbox), so none needs a leader.
 *
 * | job              | every                                   | what                              |
 * |------------------|-----------------------------------------|-----------------------------------|
 * | housekeeping     | hour, and at start                      | prunes logs and counters, carries  |
 * |                  |                                         | the agency's running totals        |
 * | outbox           | OUTBOX_INTERVAL_MS, and on each queue   | sends e-mail, SMS, client webhooks |
 * | account-alerts   | 10 minutes, and at start                | usage alerts, digests, reports     |
 * | paypal-reconcile | PAYPAL_RECONCILE_INTERVAL_MS (if set up)| re-reads PayPal subscriptions      |
 * | privacy          | minute, and at start                    | re-redaction runs, retention       |
 * | quality-backfill | minute, and at start                    | measures calls stored before       |
 * |                  |                                         | conversation quality    |
 * | backup           | 30 s, and at start (BACKUP_SCHEDULE,    | a scheduled backup, taken by one   |
 * |                  | unless off)                             | instance (operations/backup-job.ts)|
 */
import type { FastifyBaseLogger } from 'fastify';
import { createBillingGateways } from './billing/gateways';
import { paypalReconcileJob } from './billing/paypal-reconcile';
import { qualityBackfillJob } from './calls/write/quality-backfill';
import type { AppDeps } from './context';
import { housekeepingJob } from './housekeeping';
import { createJobs, type Job, type Jobs } from './http/jobs';
import type { Notifications } from './notifications';
import { backupJob } from './operations/backup-job';
import { privacyJob } from './privacy/privacy-job';

export interface BackgroundJobsOptions {
  notifications: Notifications;
  log: FastifyBaseLogger;
  /** Jobs left out by name (the browser tests run without housekeeping). */
  except?: string[];
}

export function backgroundJobs(
  deps: AppDeps,
  { notifications, log, except = [] }: BackgroundJobsOptions,
): Jobs {
  const jobs: Job[] = [
    housekeepingJob(deps, (error) => log.warn({ err: error }, 'housekeeping failed')),
    ...notifications.jobs(),
    privacyJob(deps, (error) => log.warn({ err: error }, 'privacy work failed')),
    qualityBackfillJob(deps, (error) => log.warn({ err: error }, 'quality backfill failed')),
  ];
  // Its own gateways: the routes' are private to billing's plugin; PayPal's token is cached per gateway.
  const paypal = paypalReconcileJob({ deps, gateways: createBillingGateways(deps.config), log });
  if (paypal) jobs.push(paypal);
  const backup = backupJob(deps, log);
  if (backup) jobs.push(backup);
  return createJobs(
    jobs.filter((job) => !except.includes(job.name)),
    (error, job) => log.warn({ err: error, job: job.name }, 'background job failed'),
  );
}
