/**
 * Each instance's live hub: reads new rows of `live_events` and hands them to the
 * streams open on this instance, by client. Every instance reads the same table, so an event
 * written through any instance reaches streams held by any other. What wakes the read:
 * - PostgreSQL: LISTEN live_events on a connection of its own (the table's trigger NOTIFYs on
 *   commit), with a slow poll behind it in case a notification is lost while reconnecting;
 * - SQLite (one process by design): the writer's own wake-up after its commit (webhook deliveries),
 *   and an in-process poll while any stream is open for every other writer.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema';
import { startJob } from '../http/jobs';

export interface LiveMessage {
  id: number;
  clientId: string;
  kind: string;
  payload: string;
}

export type LiveListener = (message: LiveMessage) => void;

export interface LiveHubOptions {
  db: Kysely<Database>;
  /** PostgreSQL connection string; absent on SQLite. */
  listenUrl?: string;
  log: { warn(obj: object, msg: string): void };
  /** SQLite's poll, and PostgreSQL's safety poll behind LISTEN. */
  pollMs?: number;
}

const BATCH = 1000;
/** How long a writer's wake-up waits, so the commits of a burst share one read. */
export const WAKE_GAP_MS = 100;

export function createLiveHub({ db, listenUrl, log, pollMs = listenUrl ? 2000 : 250 }: LiveHubOptions) {
  const listeners = new Map<string, Set<LiveListener>>();
  let cursor: number | null = null;
  let reading: Promise<void> | null = null;
  let again = false;
  let stopPolling: (() => void) | null = null;
  let listener: pg.Client | null = null;
  let soon: NodeJS.Timeout | null = null;
  let closed = false;
  // For /readyz: since when reads fail, and since when LISTEN is down (PostgreSQL).
  let readFailingSince: number | null = null;
  let listenLostSince: number | null = null;

  async function latestId(): Promise<number> {
    const row = await db
      .selectFrom('live_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  async function readNew(): Promise<void> {
    if (cursor === null) cursor = await latestId();
    for (;;) {
      const rows = await db
        .selectFrom('live_events')
        .select(['id', 'client_id', 'kind', 'payload'])
        .where('id', '>', cursor)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        cursor = Number(row.id);
        const message = { id: Number(row.id), clientId: row.client_id, kind: row.kind, payload: row.payload };
        for (const fn of listeners.get(row.client_id) ?? []) fn(message);
      }
      if (rows.length < BATCH) return;
    }
  }

  /** Reads what is new; a wake during a read runs one more read after it. */
  function wake(): void {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = readNew()
      .then(() => {
        readFailingSince = null;
      })
      .catch((error) => {
        readFailingSince ??= Date.now();
        log.warn({ err: error }, 'live events read failed');
      })
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  async function listen(): Promise<void> {
    if (!listenUrl || closed) return;
    const client = new pg.Client({ connectionString: listenUrl });
    listener = client;
    client.on('notification', () => wake());
    client.on('error', (error) => {
      listenLostSince ??= Date.now();
      log.warn({ err: error }, 'live events LISTEN connection lost; reconnecting');
      client.end().catch(() => {});
      if (listener === client) listener = null;
      void sleep(1000, undefined, { ref: false }).then(listen).then(wake);
    });
    try {
      await client.connect();
      await client.query('LISTEN live_events');
      listenLostSince = null;
    } catch (error) {
      client.emit('error', error);
    }
  }

  async function start(): Promise<void> {
    if (stopPolling || closed) return;
    if (cursor === null) cursor = await latestId();
    // wake() reports its own failures; the job has none to report.
    stopPolling = startJob({ name: 'live-poll', intervalMs: pollMs, run: wake }, () => {});
    await listen();
  }

  return {
    /** Starts reading (once) and calls `fn` with each new event of this client. */
    async subscribe(clientId: string, fn: LiveListener): Promise<() => void> {
      let set = listeners.get(clientId);
      if (!set) {
        set = new Set();
        listeners.set(clientId, set);
      }
      set.add(fn);
      await start();
      return () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(clientId);
      };
    },

    /** A client's events after `lastId` still kept, oldest first (a stream resuming). */
    async since(clientId: string, lastId: number): Promise<LiveMessage[]> {
      const rows = await db
        .selectFrom('live_events')
        .select(['id', 'client_id', 'kind', 'payload'])
        .where('client_id', '=', clientId)
        .where('id', '>', lastId)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      return rows.map((r) => ({ id: Number(r.id), clientId: r.client_id, kind: r.kind, payload: r.payload }));
    },

    /** The oldest id still kept (0 when none): a resume from before it may have missed events. */
    async oldestId(): Promise<number> {
      const row = await db
        .selectFrom('live_events')
        .select((eb) => eb.fn.min('id').as('id'))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    latestId,

    /**
     * Reads new events now: a writer on this instance calls it after its commit, so its own
     * streams need not wait for the poll (on SQLite the only wake-up besides the poll).
     */
    wake(): void {
      if (listeners.size === 0 || soon) return;
      // At most one read per WAKE_GAP_MS: under a burst of deliveries the streams get them in a
      // few batches, and the database is not asked again for every commit.
      soon = setTimeout(() => {
        soon = null;
        wake();
      }, WAKE_GAP_MS);
    },

    /**
     * What /readyz judges the hub by: whether it has started (the first stream starts it), and
     * since when its reads fail or its LISTEN connection is down (null: they are fine).
     */
    health(): {
      started: boolean;
      streams: number;
      readFailingSince: number | null;
      listenLostSince: number | null;
    } {
      let streams = 0;
      for (const set of listeners.values()) streams += set.size;
      return { started: stopPolling !== null, streams, readFailingSince, listenLostSince };
    },

    /** Streams open on this instance. */
    openStreams(): number {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },

    async close(): Promise<void> {
      closed = true;
      stopPolling?.();
      if (soon) clearTimeout(soon);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
      await reading;
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
