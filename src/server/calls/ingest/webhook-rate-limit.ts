/**
 * Deliveries per webhook URL per minute, held across instances without a database write per
 * delivery: each instance counts locally and adds its counts to the shared counter once a second,
 * reading back the total of every instance. A burst can overshoot by about a second's worth per
 * instance; a sustained flood from one leaked URL is cut everywhere.
 *
 * Two budgets per URL, each of WEBHOOK_DELIVERIES_PER_MINUTE: deliveries we believe (signed,
 * confirmed by the provider, or of a client with nothing to check them with) and deliveries we do
 * not (refused, or stored unverified). Whoever holds a leaked URL can only post the second kind, so
 * junk never spends the budget of the provider's real deliveries.
 */
import type { AppDeps } from '../../context';
import { startJob } from '../../http/jobs';
import { createRateCounters } from '../../http/rate-counters';

const WINDOW_MS = 60_000;

/** Which budget a delivery spends: see the header. */
export type WebhookBudget = 'verified' | 'unverified';
const FLUSH_MS = 1_000;

export function createWebhookRateLimit(
  deps: Pick<AppDeps, 'rateCounters' | 'config' | 'db' | 'now'>,
  onError: (error: unknown) => void,
) {
  const max = deps.config.webhookDeliveriesPerMinute;
  const pending = new Map<string, number>();
  /** Counts being flushed: no longer pending, not yet in the shared total, still counted. */
  const flushing = new Map<string, number>();
  const shared = new Map<string, number>();

  async function flush(): Promise<void> {
    // In key order, so two instances flushing the same URLs lock their rows in one order.
    const batch = [...pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    pending.clear();
    for (const [key, count] of batch) flushing.set(key, count);
    // One statement per 500 URLs for the whole second: a commit per URL (an fsync each on SQLite,
    // taking the one write lock the deliveries' own commits wait for) cost more than the deliveries'
    // writes, and a statement per URL was ~5 % of the server's time under load on PostgreSQL
    //.
    try {
      const counters = createRateCounters(deps.db, deps.now);
      for (let i = 0; i < batch.length; i += 500) {
        const totals = await counters.hitMany(batch.slice(i, i + 500), WINDOW_MS);
        for (const [key, total] of totals) shared.set(key, total);
      }
    } finally {
      flushing.clear();
    }
    // Forget quiet URLs: the next delivery reads their count afresh.
    for (const key of shared.keys()) if (!batch.some(([k]) => k === key)) shared.delete(key);
  }

  const stopFlushing = startJob({ name: 'webhook-rate-flush', intervalMs: FLUSH_MS, run: flush }, onError);

  return {
    /**
     * Counts a delivery to this client's URL in its budget; false when that budget is over its
     * limit across instances. Keyed by the client, not the token: the token is a secret and stays
     * out of the counters.
     */
    async allow(clientId: string, budget: WebhookBudget): Promise<boolean> {
      const key = budget === 'verified' ? `webhook:${clientId}` : `webhook-unverified:${clientId}`;
      // A URL this instance has not seen lately: start from what the others have counted.
      if (!shared.has(key)) shared.set(key, await deps.rateCounters.peek(key, WINDOW_MS));
      const local = (pending.get(key) ?? 0) + 1;
      pending.set(key, local);
      return (shared.get(key) ?? 0) + (flushing.get(key) ?? 0) + local <= max;
    },
    flush,
    async close(): Promise<void> {
      stopFlushing();
      await flush();
    },
  };
}
