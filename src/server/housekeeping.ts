/**
 * Periodic clean-up every instance runs (each step is idempotent, so two instances doing it at
 * once is harmless): the webhook delivery log, and webhook calls the provider never confirmed,
 * are kept for WEBHOOK_DELIVERY_RETENTION_DAYS; rate counters go once they count nothing; live
 * events once no stream could resume from them; every client's running totals are carried to
 * the coming days, so the portfolio finds each client at any day it asks about; a client's
 * activity log keeps 365 days.
 */

import { LIVE_RESUME_MS } from '../contract/live';
import { pruneActivity } from './activity/read';
import { carryClientDaysForward } from './agency/client-days';
import { createCallsRepository } from './calls/write/calls-repository';
import type { AppDeps } from './context';
import type { Job } from './http/jobs';
import { pruneLiveEvents } from './live/live-events';

const DAY_MS = 24 * 60 * 60 * 1000;
const INTERVAL_MS = 60 * 60 * 1000;

/** Deletes delivery log entries past the retention; answers how many went. */
export async function pruneWebhookDeliveries(deps: Pick<AppDeps, 'db' | 'config' | 'now'>): Promise<number> {
  const cutoff = deps.now() - deps.config.webhookDeliveryRetentionDays * DAY_MS;
  const result = await deps.db
    .deleteFrom('webhook_deliveries')
    .where('received_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Drops webhook calls the provider never confirmed within the same retention (a sync removes the
 * ones it asks about sooner; this catches clients that never sync). They are in no total.
 */
export async function pruneUnconfirmedCalls(deps: Pick<AppDeps, 'db' | 'config' | 'now'>): Promise<number> {
  const cutoff = deps.now() - deps.config.webhookDeliveryRetentionDays * DAY_MS;
  return createCallsRepository(deps.db).deleteUnverified({ updatedBefore: cutoff });
}

/**
 * Rate counters idle for two of the longest window (a day) count nothing any more; without this,
 * every address that ever failed a login would keep its row for ever.
 */
const STALE_COUNTER_MS = 2 * DAY_MS;

export async function pruneRateCounters(deps: Pick<AppDeps, 'db' | 'now'>): Promise<number> {
  const result = await deps.db
    .deleteFrom('rate_counters')
    .where('last_at', '<', deps.now() - STALE_COUNTER_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Runs at start, then hourly (background-jobs.ts starts it); each step reports its own failure. */
export function housekeepingJob(deps: AppDeps, onError: (error: unknown) => void): Job {
  return {
    name: 'housekeeping',
    intervalMs: INTERVAL_MS,
    runAtStart: true,
    run: () => {
      pruneWebhookDeliveries(deps).catch(onError);
      pruneUnconfirmedCalls(deps).catch(onError);
      pruneRateCounters(deps).catch(onError);
      pruneLiveEvents(deps.db, deps.now() - LIVE_RESUME_MS).catch(onError);
      carryClientDaysForward(deps.db, deps.now()).catch(onError);
      pruneActivity(deps.db, deps.now()).catch(onError);
    },
  };
}
