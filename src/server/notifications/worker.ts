/**
 * The outbox worker: every few seconds it claims due messages of the channels this instance can
 * send (no SMTP_URL: e-mail waits; no Twilio: texts wait) and hands each to its sender. Runs on
 * every instance; the claim keeps two from sending the same message.
 */
import type { AppDeps } from '../context';
import type { OutboxRow } from '../db/schema';
import { type Channel, RETRY_FOR_MS, claimDue, markCancelled, markFailed, markSent } from './outbox';

/** What a sender reports: sent; failed for now (retried); or never sendable (cancelled). */
export type SendOutcome =
  | { result: 'sent'; statusCode?: number }
  | { result: 'retry'; error: string; statusCode?: number }
  | { result: 'cancel'; reason: string };

export type Sender = (message: OutboxRow, payload: unknown) => Promise<SendOutcome>;
export type Senders = Partial<Record<Channel, Sender>>;

export interface OutboxWorker {
  /** One round: claim what is due and send it. Resolves with how many were handled. */
  runOnce(): Promise<number>;
  /** A round every `intervalMs` until stop(). */
  start(intervalMs: number): void;
  stop(): void;
}

export function createOutboxWorker(
  deps: Pick<AppDeps, 'db' | 'dialect' | 'now' | 'instanceId'>,
  senders: Senders,
  onError: (error: unknown, message?: OutboxRow) => void,
): OutboxWorker {
  const channels = (Object.keys(senders) as Channel[]).filter((c) => senders[c]);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function deliver(message: OutboxRow): Promise<void> {
    const sender = senders[message.channel as Channel];
    if (!sender) return;
    // Due for over a day and never tried (the channel was not set up then): old news by now.
    if (message.attempts === 0 && deps.now() - Number(message.next_attempt_at) > RETRY_FOR_MS) {
      await markCancelled(deps.db, message, 'expired: it could not be sent within a day of being due');
      return;
    }
    let outcome: SendOutcome;
    try {
      outcome = await sender(message, JSON.parse(message.payload_json));
    } catch (error) {
      outcome = { result: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    const at = deps.now();
    if (outcome.result === 'sent') await markSent(deps.db, message, at, outcome.statusCode ?? null);
    else if (outcome.result === 'cancel') await markCancelled(deps.db, message, outcome.reason);
    else await markFailed(deps.db, message, at, outcome.error, outcome.statusCode ?? null);
  }

  async function round(): Promise<number> {
    let handled = 0;
    for (;;) {
      const batch = await claimDue(deps.db, deps.dialect, deps.instanceId, deps.now(), channels);
      if (batch.length === 0) return handled;
      await Promise.all(batch.map((m) => deliver(m).catch((error) => onError(error, m))));
      handled += batch.length;
    }
  }

  const runOnce = () => {
    // One round at a time per instance; a caller arriving meanwhile shares it.
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  };
  return {
    runOnce,
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(() => runOnce().catch((error) => onError(error)), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
