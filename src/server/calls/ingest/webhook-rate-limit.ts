/**
 * Deliveries per webhook URL per minute, held across instances without a database write per
 * delivery: each instance counts locally and adds its counts to the shared counter once a second,
 * reading back the total of every instance. A burst can overshoot by about a second's worth per
 * instance; a sustained flood from one leaked URL is cut everywhere.
 */
import type { AppDeps } from '../../context';
import { startJob } from '../../http/jobs';

const WINDOW_MS = 60_000;
const FLUSH_MS = 1_000;

export function createWebhookRateLimit(
  deps: Pick<AppDeps, 'rateCounters' | 'config'>,
  onError: (error: unknown) => void,
) {
  const max = deps.config.webhookDeliveriesPerMinute;
  const pending = new Map<string, number>();
  const shared = new Map<string, number>();

  async function flush(): Promise<void> {
    const batch = [...pending];
    pending.clear();
    await Promise.all(
      batch.map(async ([key, count]) => {
        shared.set(key, await deps.rateCounters.hit(key, WINDOW_MS, count));
      }),
    );
    // Forget quiet URLs: the next delivery reads their count afresh.
    for (const key of shared.keys()) if (!batch.some(([k]) => k === key)) shared.delete(key);
  }

  const stopFlushing = startJob({ name: 'webhook-rate-flush', intervalMs: FLUSH_MS, run: flush }, onError);

  return {
    /**
     * Counts a delivery to this client's URL; false when it is over its limit across instances.
     * Keyed by the client, not the token: the token is a secret and stays out of the counters.
     */
    async allow(clientId: string): Promise<boolean> {
      const key = `webhook:${clientId}`;
      // A URL this instance has not seen lately: start from what the others have counted.
      if (!shared.has(key)) shared.set(key, await deps.rateCounters.peek(key, WINDOW_MS));
      const local = (pending.get(key) ?? 0) + 1;
      pending.set(key, local);
      return (shared.get(key) ?? 0) + local <= max;
    },
    flush,
    async close(): Promise<void> {
      stopFlushing();
      await flush();
    },
  };
}
