/**
 * The outbox worker: every few seconds, and whenever a send ends, it claims due messages of the
 * channels this instance can send (no SMTP_URL: e-mail waits; no Twilio: texts wait) and hands
 * each to its sender. Runs on every instance; the claim keeps two from sending the same message,
 * and decides fairly which go first (outbox.ts).
 */
import type { AppDeps } from '../context';
import type { OutboxRow } from '../db/schema';
import type { Job } from '../http/jobs';
import type { OutboxSendResult } from '../http/metrics';
import {
  type Channel,
  claimDue,
  deferDestination,
  markCancelled,
  markFailed,
  markSent,
  onEnqueued,
  RETRY_FOR_MS,
  retryDelay,
} from './outbox';

/** What a sender reports: sent; failed for now (retried); or never sendable (cancelled). */
export type SendOutcome =
  | { result: 'sent'; statusCode?: number }
  | { result: 'retry'; error: string; statusCode?: number }
  | { result: 'cancel'; reason: string };

export type Sender = (message: OutboxRow, payload: unknown) => Promise<SendOutcome>;
export type Senders = Partial<Record<Channel, Sender>>;

export interface OutboxWorker {
  /**
   * Claims and sends until nothing is due and nothing is in flight. Resolves with how many
   * messages were handled meanwhile (by this call or the sends it waited for).
   */
  runOnce(): Promise<number>;
  /** The job that looks for due messages every `intervalMs`, whenever a send ends, and soon after a
   * message is queued in this process, while it runs (http/jobs.ts starts and stops it). */
  job(intervalMs: number): Job;
  /**
   * Resolves once the sends in flight have ended (recorded as sent, failed or retried), claiming
   * nothing new once the job has stopped: the graceful stop waits on it (bounded) so no leased
   * message is left to be sent again by another instance after its lease. Answers how many ended.
   */
  settle(): Promise<number>;
}

export interface WorkerLimits {
  /** Sends in flight at once on this instance, all destinations together. */
  inFlight: number;
  /** Sends in flight at once per channel whose destination is one shared service. */
  perChannel: Partial<Record<Channel, number>>;
}

/** After a message is queued in this process, looks this long after (ms). */
const WAKE_DELAYS_MS = [50, 1_000];

/** The SMTP relay and Twilio are one destination each; every client's webhook is its own. */
export const WORKER_LIMITS: WorkerLimits = { inFlight: 16, perChannel: { email: 4, sms: 4 } };

/**
 * Sends do not wait for each other: each claimed message is sent on its own, and the worker
 * claims again as soon as a send ends (up to the limits), so a send that hangs until its timeout
 * holds one slot of its destination and one of the instance, nothing else.
 */
export function createOutboxWorker(
  deps: Pick<AppDeps, 'db' | 'dialect' | 'now' | 'instanceId'> & Partial<Pick<AppDeps, 'metrics'>>,
  senders: Senders,
  onError: (error: unknown, message?: OutboxRow) => void,
  limits: WorkerLimits = WORKER_LIMITS,
): OutboxWorker {
  // Object.keys answers string[]; senders' keys are Channels.
  const channels = (Object.keys(senders) as Channel[]).filter((c) => senders[c]);
  let running = false;
  const inFlight = new Map<string, Promise<void>>();
  const perChannel = new Map<Channel, number>();
  let handled = 0;

  async function deliver(message: OutboxRow): Promise<void> {
    // The column is text written from a Channel; an unknown one finds no sender and is skipped.
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
    const count = (result: OutboxSendResult) => deps.metrics?.outboxSend(message.channel, result);
    if (outcome.result === 'sent') {
      await markSent(deps.db, message, at, outcome.statusCode ?? null);
      count('sent');
    } else if (outcome.result === 'cancel') {
      await markCancelled(deps.db, message, outcome.reason);
      count('cancelled');
    } else if (
      (await markFailed(deps.db, message, at, outcome.error, outcome.statusCode ?? null)) === 'retry'
    ) {
      count('retry');
      await deferDestination(deps.db, message, at, at + retryDelay(message.attempts + 1));
    } else count('failed');
  }

  function launch(message: OutboxRow): void {
    // The column is text, written only from a Channel when a message is enqueued.
    const channel = message.channel as Channel;
    perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
    const sending = deliver(message)
      .catch((error) => onError(error, message))
      .finally(() => {
        inFlight.delete(message.id);
        perChannel.set(channel, (perChannel.get(channel) ?? 1) - 1);
        handled++;
        // A slot is free: fill it (with the job running, or a runOnce waiting).
        if (running || draining) look();
      });
    inFlight.set(message.id, sending);
  }

  /** What may be claimed now: channel groups, each with how many of its messages fit. */
  function openings(): { channels: Channel[]; limit: number }[] {
    const room = limits.inFlight - inFlight.size;
    if (room <= 0) return [];
    const uncapped = channels.filter((c) => limits.perChannel[c] === undefined);
    const capped = channels
      .filter((c) => limits.perChannel[c] !== undefined)
      .map((c) => ({
        channels: [c],
        limit: Math.min(room, limits.perChannel[c]! - (perChannel.get(c) ?? 0)),
      }));
    return [...(uncapped.length ? [{ channels: uncapped, limit: room }] : []), ...capped].filter(
      (o) => o.limit > 0,
    );
  }

  /** Claims while there is room; each claimed message starts sending at once. */
  async function claimWhileRoom(): Promise<void> {
    for (;;) {
      let claimed = 0;
      for (const { channels: group } of openings()) {
        // Room is read again: the group before may have filled some.
        const limit = openings().find((o) => o.channels[0] === group[0])?.limit ?? 0;
        const batch = await claimDue(deps.db, deps.dialect, deps.instanceId, deps.now(), group, limit);
        for (const message of batch) launch(message);
        claimed += batch.length;
      }
      if (claimed === 0) return;
    }
  }

  // One claim loop at a time; a call meanwhile makes it go round once more.
  let filling: Promise<void> | null = null;
  let again = false;
  function fill(): Promise<void> {
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      do {
        again = false;
        await claimWhileRoom();
      } while (again);
    })().finally(() => {
      filling = null;
    });
    return filling;
  }

  const look = () => {
    fill().catch((error) => onError(error));
  };
  // A message queued here is looked for shortly after (its transaction may not have committed
  // yet), and once more a little later; the interval stays the guarantee.
  const wakes = new Map<number, NodeJS.Timeout>();
  function wakeSoon(): void {
    for (const delay of WAKE_DELAYS_MS) {
      if (wakes.has(delay)) continue;
      const t = setTimeout(() => {
        wakes.delete(delay);
        look();
      }, delay);
      t.unref();
      wakes.set(delay, t);
    }
  }

  let draining: Promise<number> | null = null;
  async function drain(): Promise<number> {
    const before = handled;
    for (;;) {
      await fill();
      if (inFlight.size === 0) return handled - before;
      await Promise.race(inFlight.values());
    }
  }

  return {
    async settle() {
      let ended = 0;
      while (inFlight.size > 0) {
        const sends = [...inFlight.values()];
        await Promise.allSettled(sends);
        ended += sends.length;
      }
      return ended;
    },
    runOnce() {
      // One drain at a time per instance; a caller arriving meanwhile shares it.
      draining ??= drain().finally(() => {
        draining = null;
      });
      return draining;
    },
    job(intervalMs) {
      return {
        name: 'outbox',
        intervalMs,
        run: look,
        alongside() {
          running = true;
          const stopListening = onEnqueued(wakeSoon);
          return () => {
            running = false;
            stopListening();
            for (const t of wakes.values()) clearTimeout(t);
            wakes.clear();
          };
        },
      };
    },
  };
}
