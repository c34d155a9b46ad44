/**
 * The gauges read when /metrics is scraped: the outbox's backlog by channel (the whole
 * database's, the same on every instance), the live streams open on this instance, and the last
 * backup's time and size. A gauge whose read fails is left empty for that scrape, never failing
 * the whole answer.
 */
import type { AppDeps } from '../context';
import { lastBackup } from './backup-state';

const registered = new WeakSet<object>();

export function registerOperationalGauges(
  deps: AppDeps,
  log: { debug(obj: object, msg: string): void },
): void {
  // One set per registry: an app built twice on the same deps (tests) must not register twice.
  if (registered.has(deps.metrics)) return;
  registered.add(deps.metrics);
  const { metrics } = deps;
  const quietly = (what: string) => (error: unknown) =>
    log.debug({ err: error }, `metrics: ${what} not read`);

  // The outbox read once per scrape, for both of its gauges.
  let outboxRead: Promise<{ channel: string; n: number; oldest: number | null }[]> | null = null;
  const outbox = () => {
    outboxRead ??= deps.db
      .selectFrom('outbox')
      .select((eb) => ['channel', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .groupBy('channel')
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          channel: r.channel,
          n: Number(r.n),
          oldest: r.oldest == null ? null : Number(r.oldest),
        })),
      )
      .finally(() => {
        setImmediate(() => {
          outboxRead = null;
        });
      });
    return outboxRead;
  };
  const CHANNELS = ['email', 'sms', 'webhook'];

  metrics.gauge(
    'outbox_pending_messages',
    'Outbox messages waiting to be sent, by channel',
    ['channel'],
    async (gauge) => {
      gauge.reset();
      const rows = await outbox().catch(quietly('outbox'));
      if (!rows) return;
      for (const channel of CHANNELS) gauge.set({ channel }, rows.find((r) => r.channel === channel)?.n ?? 0);
    },
  );
  metrics.gauge(
    'outbox_oldest_pending_age_seconds',
    'Age of the oldest outbox message waiting to be sent, by channel (0: none waiting)',
    ['channel'],
    async (gauge) => {
      gauge.reset();
      const rows = await outbox().catch(quietly('outbox'));
      if (!rows) return;
      const now = deps.now();
      for (const channel of CHANNELS) {
        const oldest = rows.find((r) => r.channel === channel)?.oldest ?? null;
        gauge.set({ channel }, oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));
      }
    },
  );
  metrics.gauge(
    'sse_streams_open',
    'Live streams (server-sent events) open on this instance',
    [],
    (gauge) => {
      gauge.set(deps.live.openStreams());
    },
  );
  metrics.gauge(
    'backup_last_success_timestamp_seconds',
    'When the last backup (scheduled or npm run backup) finished, Unix seconds; absent before the first',
    [],
    async (gauge) => {
      gauge.reset();
      const last = await lastBackup(deps.db).catch(quietly('last backup'));
      if (last) gauge.set(last.finishedAt / 1000);
    },
  );
  metrics.gauge('backup_last_size_bytes', 'Size of the last backup file', [], async (gauge) => {
    gauge.reset();
    const last = await lastBackup(deps.db).catch(quietly('last backup'));
    if (last) gauge.set(last.bytes);
  });
}
